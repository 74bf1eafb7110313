from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from config.api import error_response
from league.faults import localised

from .engine import adjudicate


class AdjudicateView(APIView):
    """Adjudicate a `domino-hand/1` record; the answer is its `domino-ruling/1`.

    Any JSON object gets a ruling (a faulty record gets `valid: false` and the first
    fault's code); only a body that is not a JSON object is refused.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []
    parser_classes = [JSONParser]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT},
        operation_id="adjudicate",
        tags=["engine"],
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            return error_response("not_a_record", _("The body must be a JSON object."))
        return Response(localised(adjudicate(request.data)))
