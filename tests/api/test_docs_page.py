"""The API's documentation pages render in Chromium from the installation alone."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("path", "title", "operation"),
    [
        ("/api/v1/docs/", ".swagger-ui .info .title", ".opblock-summary-path"),
        ("/api/v1/redoc/", ".api-info h1", "[data-section-id^='tag/events/operation/']"),
    ],
)
def test_the_docs_render_with_no_external_request(asgi_server, page, path, title, operation):
    elsewhere: list[str] = []

    def asked(request) -> None:
        if not request.url.startswith((asgi_server, "data:", "blob:")):
            elsewhere.append(request.url)

    def said(message) -> None:
        # A request that the page's policy blocks never reaches the network: Chromium says so.
        if message.type == "error" and "Content Security Policy" in message.text:
            elsewhere.append(message.text)

    page.on("request", asked)
    page.on("console", said)
    page.goto(asgi_server + path)
    page.locator(title).first.wait_for(state="visible")
    assert "Capicúa API" in page.locator(title).first.inner_text()
    # The schema loaded and was read: its operations are listed.
    page.locator(operation).first.wait_for(state="attached")
    assert page.locator(operation).count() >= 5
    page.wait_for_load_state("networkidle")
    assert elsewhere == []
