"""The API's documentation pages render in Chromium from the installation alone."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("path", "title", "operation"),
    [
        ("/api/v1/docs/", ".swagger-ui .info .title", ".opblock-summary-path"),
        pytest.param(
            "/api/v1/redoc/",
            ".api-info h1",
            "[data-section-id^='tag/events/operation/']",
            marks=pytest.mark.xfail(
                reason="ReDoc's sidebar still asks cdn.redoc.ly for its logo; the page's policy "
                "blocks it, but Chromium reports the attempt",
                strict=False,
            ),
        ),
    ],
)
def test_the_docs_render_with_no_external_request(asgi_server, page, path, title, operation):
    elsewhere: list[str] = []
    page.goto(asgi_server + path)
    page.locator(title).first.wait_for(state="visible")
    assert "Capicúa API" in page.locator(title).first.inner_text()
    # The schema loaded and was read: its operations are listed.
    page.locator(operation).first.wait_for(state="attached")
    assert page.locator(operation).count() >= 5
    page.wait_for_load_state("networkidle")
    assert elsewhere == []
