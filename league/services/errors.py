from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise


class ServiceError(Exception):
    """A refused action: `code` is stable (for the API and tests), `message` is translated.

    Raised before anything is written, or inside the transaction that is then rolled back, so
    records stay as they were. The one error idiom of the services (league and games alike;
    the live tables' `TableError` is one, with its messages in one table). The line with the
    others: the engine (`games/engine`, no Django) raises `EngineError` with a code of
    docs/hand-record.md and an English message for programs, and a service turns it into a
    `ServiceError` (or keeps it in a ruling); who may act is Django's `PermissionDenied`;
    a form's field checks stay `forms.ValidationError`.
    """

    def __init__(self, code: str, message: "_StrOrPromise") -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
