from django.utils.functional import Promise


class ServiceError(Exception):
    """A refused action: `code` is stable (for the API and tests), `message` is translated.

    Raised before anything is written, or inside the transaction that is then rolled back, so
    records stay as they were.
    """

    def __init__(self, code: str, message: str | Promise):
        super().__init__(str(message))
        self.code = code
        self.message = message
