from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import (
    THROTTLES,
    AnonRateThrottle,
    ApiKeyAuthentication,
    KeyScope,
    UserRateThrottle,
    api_key,
    in_scope,
)
from api.errors import error_response
from api.schema import ANY_RECORD, RULING
from games.engine import adjudicate
from games.models import Hand
from games.services import reviews
from league.faults import localised


class AdjudicateView(APIView):
    """Adjudicate a `domino-hand/1` record; the answer is its `domino-ruling/1`.

    Any JSON object gets a ruling (a faulty record gets `valid: false` and the first
    fault's code); only a body that is not a JSON object is refused.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(
        request={"application/json": ANY_RECORD},
        responses={200: RULING},
        operation_id="adjudicate",
        tags=["engine"],
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            return error_response("not_a_record", _("The body must be a JSON object."))
        return Response(localised(adjudicate(request.data)))


class HandAnalysisView(APIView):
    """The analysis of a finished live hand: every decision valued from what its player
    knew then, the costliest moves and a one-line verdict.

    Only the hand's players and its event's organisers and referees may see it; anyone else
    is told the hand does not exist. POST starts the analysis (a Celery task) and answers its
    progress, and needs a read-write key; GET follows it (`status` is `none` until someone
    started it). A key's calls count against its own rate.
    """

    authentication_classes = [ApiKeyAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated, KeyScope]
    throttle_classes = THROTTLES

    def _record(self, request, pk: int) -> dict:
        hand = Hand.objects.select_related("table__fixture__event").filter(pk=pk).first()
        if hand is None or not reviews.may_see_hand(request.user, hand):
            raise NotFound(_("There is no such hand."))
        key = api_key(request)
        fixture = hand.table.fixture
        if key is not None and (fixture is None or not in_scope(key, fixture.event.organisation)):
            # A key reaches its organisation's events only, whoever made it.
            raise NotFound(_("There is no such hand."))
        return hand.record

    def _answer(self, review) -> Response:
        return Response(reviews.payload(review, reviews.seat_names(review.record)))

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT}, operation_id="hand_analysis", tags=["engine"]
    )
    def get(self, request, pk: int):
        review = reviews.find_review(self._record(request, pk))
        return Response({"status": "none"}) if review is None else self._answer(review)

    @extend_schema(
        request=None,
        responses={200: OpenApiTypes.OBJECT},
        operation_id="hand_analysis_start",
        tags=["engine"],
    )
    def post(self, request, pk: int):
        try:
            review = reviews.request_review(self._record(request, pk))
        except reviews.ReviewError as error:
            return error_response(error.code, error.message)
        return self._answer(review)
