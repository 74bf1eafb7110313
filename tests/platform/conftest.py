import pytest


@pytest.fixture(autouse=True)
def _empty_mailbox(request):
    if "mail_dir" in request.fixturenames:
        for path in request.getfixturevalue("mail_dir").iterdir():
            path.unlink()
