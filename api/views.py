"""REST API v1: thin views over the same services, permissions and rules as the web pages.

Reads are public (drafts only for their organisers, as on the site); writes go through the
competition services with the caller (a signed-in user, or the owner behind an API key), and
a key never reaches beyond its organisation or its access.
"""

import datetime
import json

import django_filters
from django import forms
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.fields import BooleanField
from rest_framework.filters import BaseFilterBackend, OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import SAFE_METHODS
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import exception_handler
from games.services import autopilot as live_autopilot
from games.services.reviews import shown_record
from games.stats.selectors import statistics as player_statistics
from league.models import (
    AuditEntry,
    Autopilot,
    Division,
    Entry,
    Event,
    Match,
    Organisation,
    Player,
    Result,
    Round,
)
from league.permissions import can, require
from league.ratings import services as ratings
from league.ratings.models import RatingPool
from league.services import autopilot as league_autopilot
from league.services import clubs, entries, events, fixtures, results, standings
from league.services.autopilot import clock
from league.tournaments.models import Bracket, BracketSlot, DraftPairing, TableResult
from league.tournaments.services import brackets, groups, individual, swiss
from league.tournaments.services import common as tournaments
from league.tournaments.services import standings as tournament_standings

from . import serializers as s
from . import services as hooks
from .auth import (
    THROTTLES,
    ApiKeyAuthentication,
    KeyScope,
    api_key,
    check_scope,
    may_see,
    seen_events,
)
from .http import (
    ConditionalGetMixin,
    fixtures_kept_as,
    generation,
    kept,
    plain_json,
    standings_kept_as,
)
from .live import event_scores, match_score, score_stream
from .models import Delivery, Webhook
from .serializers import MAX_ID

SLUG = "[-a-zA-Z0-9_]{1,80}"
DRAFT = Event.Status.DRAFT
CURRENT = Prefetch(
    "results",
    queryset=Result.objects.exclude(status__in=[Result.Status.SUPERSEDED, Result.Status.REJECTED]),
    to_attr="current_results",
)


class Pagination(PageNumberPagination):
    """`page` from 1, `page_size` from 1 to 500 (50 by default); anything else is a 400, and
    a page past the last is a 404."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Request) -> int:
        wanted = _valid(s.PageSerializer, request, request.query_params)["page_size"]
        return wanted or self.page_size

    def get_schema_operation_parameters(self, view) -> list[dict]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            "page": {"minimum": 1},
            "page_size": {"minimum": 1, "maximum": self.max_page_size, "default": self.page_size},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds[parameter["name"]])
        return parameters


class FilterSet(django_filters.FilterSet):
    """A filter given with no value (`?round=`), or a yes-or-no that is not `true` or
    `false`, is a 400 rather than no filter at all; free text may be empty."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for name, wanted in self.filters.items():
            given = self.data.get(name)
            if given == "" and not isinstance(wanted, django_filters.CharFilter):
                self.form.add_error(name, forms.Field.default_error_messages["required"])
                valid = False
            elif isinstance(wanted, django_filters.BooleanFilter) and given not in (
                None,
                "true",
                "false",
            ):
                self.form.add_error(name, BooleanField.default_error_messages["invalid"])
                valid = False
        return valid


class FilterBackend(django_filters.rest_framework.DjangoFilterBackend):
    filterset_base = FilterSet


SLUG_SCHEMA = {"type": "string", "pattern": f"^{SLUG}$"}
UNKNOWN = forms.ModelChoiceField.default_error_messages["invalid_choice"]


@extend_schema_field(SLUG_SCHEMA)
class SlugFilter(django_filters.ModelChoiceFilter):
    """An object named by its slug. One that does not exist, or that the caller may not see
    (a draft's), is a 400 naming the filter, not an empty page."""

    def __init__(self, **kwargs) -> None:
        super().__init__(to_field_name="slug", **kwargs)


@extend_schema_field({"type": "integer"})
class IdFilter(django_filters.ModelChoiceFilter):
    """An object named by its id; like `SlugFilter`, an unknown or hidden one is a 400."""


@extend_schema_field({"type": "string", "maxLength": 2})
class CountryFilter(django_filters.CharFilter):
    """A country's two-letter code (ISO 3166-1)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(max_length=2, **kwargs)


def seen(model, path: str = ""):
    """The rows of `model` whose event (`path` from them) the caller may see, as the
    queryset of a filter."""
    return lambda request: model.objects.filter(seen_events(request, path))


class StableOrdering(OrderingFilter):
    """The requested order, then the primary key, so pages never overlap or skip."""

    def get_ordering(self, request: Request, queryset: QuerySet, view) -> list[str]:
        """One of the view's `ordering_fields`, or `-` and one of them; anything else is a
        400 rather than silently the default order."""
        wanted = request.query_params.get(self.ordering_param)
        if wanted is None:
            return self.get_default_ordering(view)
        if wanted not in self.choices(view):
            raise ValidationError({self.ordering_param: [_("Not a valid order.")]})
        return [wanted]

    @staticmethod
    def choices(view) -> list[str]:
        fields = list(getattr(view, "ordering_fields", []))
        return [*fields, *(f"-{name}" for name in fields)]

    def get_schema_operation_parameters(self, view) -> list[dict]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["enum"] = self.choices(view)
        return parameters

    def filter_queryset(self, request, queryset, view):
        queryset = super().filter_queryset(request, queryset, view)
        return queryset.order_by(*queryset.query.order_by, "pk")


SSE_DESCRIPTION = """The event's live scores as Server-Sent Events (`text/event-stream`, UTF-8).

What the stream sends, and nothing else:

- `retry: <milliseconds>` first: how long a browser's `EventSource` waits before it
  reconnects.
- `event: scores` at once, and again each time any score of the event changes. Its `data` is
  one line of JSON: the list that `GET /events/{slug}/live/` answers (`LiveScore` objects, one
  per match played at a live table, never a tile).
- `: keepalive` comment lines while nothing changes (every 15 seconds), so that proxies keep
  a quiet stream open; `EventSource` ignores them.

`scores` is the only event type. The stream ends after `LIVE_STREAM_SECONDS` (300 by default)
and `EventSource` reconnects by itself. An unknown event (or a draft, to anyone but its
organisers) answers 404 with the API's JSON error before any event is sent."""


class EventStreamRenderer(BaseRenderer):
    """`text/event-stream` for the live scores' stream (its errors are JSON)."""

    media_type = "text/event-stream"
    format = "sse"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return json.dumps(data).encode()


UPDATED_SINCE = OpenApiParameter(
    "updated_since",
    OpenApiTypes.DATETIME,
    description=(
        "Only what was created or changed at or after this time (RFC 3339, read to the "
        "millisecond), each row's `updated`. A change is stamped just before it commits: to "
        "poll, ask again from a minute before the newest `updated` you saw. Deleted rows are "
        "not listed."
    ),
)


class UpdatedSince(BaseFilterBackend):
    """`?updated_since=`: a list's rows that changed at or after that time (RFC 3339)."""

    @staticmethod
    def tracked(view) -> bool:
        return any(f.name == "updated" for f in view.queryset.model._meta.fields)

    @staticmethod
    def given(request: Request) -> datetime.datetime | None:
        """The time asked for (a 400 when it is not one), to the millisecond, or None.

        The embedded database stamps `updated` to the millisecond: a change in the same
        millisecond as the time asked for is listed rather than missed."""
        if "updated_since" not in request.query_params:
            return None
        wanted = _valid(s.UpdatedSinceSerializer, request, request.query_params)["updated_since"]
        return wanted.replace(microsecond=wanted.microsecond // 1000 * 1000)

    @classmethod
    def since(cls, request: Request, queryset: QuerySet) -> QuerySet:
        """The rows of `queryset` changed since the time asked for (all without one)."""
        wanted = cls.given(request)
        return queryset if wanted is None else queryset.filter(updated__gte=wanted)

    def filter_queryset(self, request: Request, queryset: QuerySet, view) -> QuerySet:
        if view.action != "list" or not self.tracked(view):
            return queryset
        return self.since(request, queryset)

    def get_schema_operation_parameters(self, view) -> list[dict]:
        if not self.tracked(view):
            return []
        return [
            {
                "name": UPDATED_SINCE.name,
                "in": "query",
                "required": False,
                "description": UPDATED_SINCE.description,
                "schema": {"type": "string", "format": "date-time"},
            }
        ]


class ApiViewSet(ConditionalGetMixin, viewsets.GenericViewSet):
    """Lists show what belongs to draft events to their organisers only (a key: within its
    organisation), and one object of a draft event is found by them only (`event_field`
    leads from the object to its event)."""

    authentication_classes = [ApiKeyAuthentication, SessionAuthentication]
    permission_classes = [KeyScope]
    throttle_classes = THROTTLES
    pagination_class = Pagination
    filter_backends = [FilterBackend, UpdatedSince, StableOrdering]
    lookup_value_regex = "[0-9]{1,18}"
    event_field: str | None = None

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        if self.event_field and self.action == "list":
            queryset = queryset.filter(seen_events(self.request, self.event_field))
        return super().filter_queryset(queryset)

    def get_object(self):
        found = super().get_object()
        if self.event_field:
            event = found
            for name in self.event_field.split("__"):
                event = getattr(event, name)
            reached(self.request, event)
        return found


def visible(request: Request, event: Event) -> Event:
    if not may_see(request, event):
        raise Http404
    return event


def write(request: Request, event: Event) -> None:
    """Before any write: the event must be visible and within the key's organisation."""
    visible(request, event)
    check_scope(request, event.organisation)


def reached(request: Request, event: Event) -> Event:
    """The event of an object asked for by its address: a draft is found by its organisers
    only (404), and a write is refused (403) outside the key's organisation, whatever the
    body says: before the body is read."""
    if request.method in SAFE_METHODS:
        return visible(request, event)
    write(request, event)
    return event


# Organisations, clubs and players ---------------------------------------------------------


class OrganisationFilter(FilterSet):
    country = CountryFilter()
    parent__slug = SlugFilter(field_name="parent", queryset=Organisation.objects.all())

    class Meta:
        model = Organisation
        fields = ["kind", "country", "parent__slug"]


class OrganisationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Clubs, associations and federations."""

    queryset = Organisation.objects.select_related("parent")
    serializer_class = s.OrganisationSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG
    filterset_class = OrganisationFilter
    ordering_fields = ["name", "created"]
    ordering = ["name"]

    @extend_schema(
        parameters=[s.AuditFilterSerializer],
        responses=s.AuditEntrySerializer(many=True),
        extensions={"x-organisers-only": True},
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def audit(self, request: Request, slug: str) -> Response:
        """The organisation's audit log, newest first (its organisers; a key: its own
        organisation's): every change to its events, entries, results and settings, its
        webhooks and keys, and its deleted drafts."""
        organisation = self.get_object()
        check_scope(request, organisation)
        require(request.user, "organisation.manage", organisation)
        wanted = _valid(s.AuditFilterSerializer, request, request.query_params)
        log = AuditEntry.objects.filter(organisation=organisation)
        if "event" in wanted:
            event = Event.objects.filter(slug=wanted["event"], organisation=organisation).first()
            if event is None:
                raise ValidationError({"event": [UNKNOWN]})
            log = log.filter(event=event)
        if "action" in wanted:
            log = log.filter(action=wanted["action"])
        if "since" in wanted:
            log = log.filter(at__gte=wanted["since"])
        if "until" in wanted:
            log = log.filter(at__lt=wanted["until"])
        log = log.select_related("event", "actor__player").order_by("-at", "-pk")
        page = self.paginate_queryset(log)
        return self.get_paginated_response(s.AuditEntrySerializer(page, many=True).data)


class ClubFilter(OrganisationFilter):
    class Meta:
        model = Organisation
        fields = ["country", "parent__slug"]


class ClubViewSet(OrganisationViewSet):
    """The organisations that are clubs."""

    queryset = Organisation.objects.filter(kind=Organisation.Kind.CLUB).select_related("parent")
    filterset_class = ClubFilter


class PlayerFilter(FilterSet):
    club__slug = SlugFilter(field_name="club", queryset=Organisation.objects.all())
    country = CountryFilter()

    class Meta:
        model = Player
        fields = ["club__slug", "country"]


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Players, public fields only. A club's organisers change a roster player's name and
    contact details (PUT, PATCH), as on the club's roster page."""

    queryset = Player.objects.select_related("club")
    serializer_class = s.PlayerSerializer
    filterset_class = PlayerFilter
    ordering_fields = ["display_name", "created"]
    ordering = ["display_name"]
    http_method_names = ["get", "put", "patch", "head", "options"]

    @extend_schema(request=s.RosterPlayerSerializer, responses=s.PlayerSerializer)
    def update(self, request: Request, *args, **kwargs) -> Response:
        """Change a roster player (all of `display_name`, `email` and `phone` with PUT, any
        of them with PATCH; the contact details are never shown). A key refuses (403) a
        player of another organisation's club; a player who is not on the roster of an
        organisation the caller manages (a key: its own) is not found; one with an account
        edits their own profile (422 `has_account`)."""
        partial = kwargs.get("partial", False)
        player = self.get_object()
        key = api_key(request)
        if key is not None and player.club is not None:
            check_scope(request, player.club)  # a public player of another organisation
        data = _valid(s.RosterPlayerSerializer, request, partial=partial)
        organisation = key.organisation if key is not None else player.club
        if (
            organisation is None
            or not can(request.user, "organisation.manage", organisation)
            or not clubs.roster(organisation).filter(pk=player.pk).exists()
        ):
            raise Http404
        current = {f: getattr(player, f) for f in s.RosterPlayerSerializer.Meta.fields}
        player = clubs.update_player(request.user, organisation, player, **{**current, **data})
        return Response(self.get_serializer(player).data)

    @extend_schema(request=s.RosterPlayerSerializer, responses=s.PlayerSerializer)
    def partial_update(self, request: Request, *args, **kwargs) -> Response:
        """Change some of a roster player's name and contact details (see PUT)."""
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(responses=s.RatingHistorySerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def ratings(self, request: Request, pk: str) -> Response:
        """The player's rating in each pool they play in, and its history."""
        history = ratings.history(self.get_object())
        return Response(s.RatingHistorySerializer(history, many=True).data)

    @extend_schema(responses=s.PlayerStatisticsSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def statistics(self, request: Request, pk: str) -> Response:
        """The player's statistics from the finished hands of live play and the hand records
        of league results, as the referees' rulings left them: hands and matches played and
        won; dominoes, capicúas and tranques won and lost; passes forced and suffered; points
        per hand won; openings; results with each partner. Overall and per rule set."""
        player = self.get_object()
        found = player_statistics(player.pk)
        data = {"player": player.pk, "overall": found.overall, "rule_sets": found.rule_sets}
        return Response(s.PlayerStatisticsSerializer(data).data)


class RatingPoolViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Rating pools: the global ranking of online play, and organisations' rankings."""

    queryset = RatingPool.objects.select_related("organisation")
    serializer_class = s.RatingPoolSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG
    filterset_fields = ["kind"]
    ordering_fields = ["name"]
    ordering = ["kind", "name"]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "club", SLUG_SCHEMA, description="Only this club's players (its slug)."
            ),
            OpenApiParameter(
                "country",
                {"type": "string", "maxLength": 2},
                description="Only this country's players.",
            ),
            UPDATED_SINCE,
        ],
        responses=s.LeaderboardRowSerializer(many=True),
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def leaderboard(self, request: Request, slug: str) -> Response:
        """The pool's leaderboard, best first. With `updated_since`, only the ratings that
        changed since then, each with its place on the whole leaderboard."""
        wanted = _valid(s.LeaderboardFilterSerializer, request, request.query_params)
        club = None
        if wanted["club"]:
            club = Organisation.objects.filter(slug=wanted["club"]).first()
            if club is None:
                raise ValidationError({"club": [UNKNOWN]})
        rows = ratings.leaderboard(self.get_object(), club=club, country=wanted["country"])
        changed = UpdatedSince.since(request, rows)
        if changed is rows:
            page = self.paginate_queryset(rows)
            places = {r.pk: n for n, r in enumerate(page, self.paginator.page.start_index())}
        else:
            places = {pk: n for n, pk in enumerate(rows.values_list("pk", flat=True), 1)}
            page = self.paginate_queryset(changed)
        for rating in page:
            rating.position = places[rating.pk]
        serializer = s.LeaderboardRowSerializer(
            page, many=True, context=self.get_serializer_context()
        )
        return self.get_paginated_response(serializer.data)


# Events ---------------------------------------------------------------------------------


class EventFilter(FilterSet):
    organisation = SlugFilter(queryset=Organisation.objects.all())

    class Meta:
        model = Event
        fields = ["organisation", "season", "status", "format", "mode", "entry_kind"]


class EventViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    ApiViewSet,
):
    """Events: listed once out of draft (drafts to their organisers only); created and edited
    by their organisers."""

    serializer_class = s.EventSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG
    filterset_class = EventFilter
    ordering_fields = ["created", "name", "registration_opens"]
    ordering = ["-created"]
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    queryset = Event.objects.select_related("organisation", "tournament").prefetch_related(
        "divisions"
    )

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        if self.action == "list":
            queryset = queryset.filter(seen_events(self.request))
        return super().filter_queryset(queryset)

    def get_object(self) -> Event:
        return reached(self.request, super().get_object())

    def perform_create(self, serializer) -> None:
        fields = dict(serializer.validated_data)
        organisation = fields.pop("organisation")
        check_scope(self.request, organisation)
        serializer.instance = tournaments.create_with_options(
            self.request.user, organisation, **fields
        )

    def perform_update(self, serializer) -> None:
        serializer.instance = tournaments.update_with_options(
            self.request.user, serializer.instance, **serializer.validated_data
        )

    def perform_destroy(self, instance: Event) -> None:
        """Delete a draft made by mistake, with its entries (organisers): refused (422
        `not_draft`, `has_rounds`) once published or once its rounds are made, when it is
        cancelled instead."""
        events.delete_event(self.request.user, instance)

    @extend_schema(request=s.CheckInSerializer, responses=s.EventSerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, slug: str) -> Response:
        """Close the event's check-in (`open` false: nobody checks in or undoes a check-in)
        or reopen it (organisers)."""
        event = self.get_object()
        wanted = _valid(s.CheckInSerializer, request)["open"]
        event = entries.open_check_in(request.user, event, wanted)
        return Response(s.EventSerializer(event, context=self.get_serializer_context()).data)

    @extend_schema(request=s.StatusSerializer, responses=s.EventSerializer)
    @action(detail=True, methods=["post"])
    def status(self, request: Request, slug: str) -> Response:
        """Move the event on: registration, in play, finished, cancelled."""
        event = self.get_object()
        data = _valid(s.StatusSerializer, request)
        event = events.set_status(request.user, event, data["status"])
        return Response(s.EventSerializer(event, context=self.get_serializer_context()).data)

    @extend_schema(request=s.FixturesSerializer, responses={201: s.RoundSerializer(many=True)})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def fixtures(self, request: Request, slug: str) -> Response:
        """Draw lots and make every round of a league."""
        event = self.get_object()
        data = _valid(s.FixturesSerializer, request)
        made = fixtures.generate_fixtures(request.user, event, first_date=data.get("first_date"))
        return Response(s.RoundSerializer(made, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("division", int, description="Only this division.")],
        responses=s.StandingsSerializer,
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request: Request, slug: str) -> Response:
        """The standings (by division, or by group), ranked by the event's tiebreaks in order;
        the same tables as the event's pages. Their JSON is kept in the cache, rendered, with
        its ETag until something they show changes: a request whose `If-None-Match` matches
        gets 304 without touching the database."""
        wanted = _valid(s.DivisionFilterSerializer, request, request.query_params)["division"]
        kept_as = standings_kept_as(request) if plain_json(request) else None
        if kept_as is None:
            # Another query or representation (the browsable API, indented JSON) is not kept.
            return Response(standings_body(self.get_object(), wanted))
        found = kept(request, kept_as)
        if found is not None:
            return found
        current = generation(kept_as.slug)  # before reading the tables
        event = self.get_object()
        response = Response(standings_body(event, wanted))
        if event.status != Event.Status.DRAFT:
            response.keep_as = (kept_as, current)
        return response

    # Running a Swiss tournament: the same services as the organiser's dashboard.

    def _draft(self, event: Event, pairings: list[DraftPairing] | None = None) -> Response:
        pairings = swiss.draft(event) if pairings is None else pairings
        context = {"rematches": swiss.rematches(event, pairings) if pairings else set()}
        return Response(s.DraftPairingSerializer(pairings, many=True, context=context).data)

    def _organised(self, request: Request) -> Event:
        """The event, for its organisers only (a draft round is theirs alone)."""
        event = self.get_object()
        write(request, event)
        require(request.user, "event.manage", event)
        return event

    def _changing_rounds(self, request: Request, step: str) -> Event:
        """The event, for its organisers, and `step` allowed now: refused (422) while the
        event runs itself or while the worker pairs a round, as on the run page."""
        event = self._organised(request)
        league_autopilot.require_manual(event, step)
        return event

    @extend_schema(
        responses=s.DraftPairingSerializer(many=True), extensions={"x-organisers-only": True}
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def draft(self, request: Request, slug: str) -> Response:
        """The Swiss round being drafted, table by table (organisers only)."""
        return self._draft(self._organised(request))

    @extend_schema(request=None, responses=s.DraftPairingSerializer(many=True))
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def pair(self, request: Request, slug: str) -> Response:
        """Pair the next Swiss round as a draft (again: pinned tables are kept). Refused
        (422) while the latest round has matches without a confirmed result, or once every
        round is paired."""
        event = self._changing_rounds(request, "pair")
        return self._draft(event, swiss.pair_round(request.user, event))

    @extend_schema(request=s.SwapSerializer, responses=s.DraftPairingSerializer(many=True))
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def swap(self, request: Request, slug: str) -> Response:
        """Exchange two entries' places in the draft; both tables become pinned."""
        event = self._changing_rounds(request, "swap")
        data = _valid(s.SwapSerializer, request)
        first, second = (
            get_object_or_404(Entry, event=event, pk=data[side]) for side in ("first", "second")
        )
        return self._draft(event, swiss.swap(request.user, event, first, second))

    @extend_schema(request=s.PinSerializer, responses=s.DraftPairingSerializer(many=True))
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def pin(self, request: Request, slug: str) -> Response:
        """Pin (or unpin) a draft table: pairing the round again keeps it."""
        event = self._changing_rounds(request, "pin")
        data = _valid(s.PinSerializer, request)
        pairing = get_object_or_404(DraftPairing, event=event, pk=data["pairing"])
        swiss.pin(request.user, pairing, data["pinned"])
        return self._draft(event)

    @extend_schema(request=None, responses={201: s.RoundSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def publish(self, request: Request, slug: str) -> Response:
        """The draft becomes the round that everyone sees and plays."""
        event = self._changing_rounds(request, "publish")
        round_ = swiss.publish(request.user, event)
        return Response(s.RoundSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], url_path="discard-draft")
    def discard_draft(self, request: Request, slug: str) -> Response:
        """Throw the draft round away."""
        event = self._changing_rounds(request, "discard")
        swiss.discard_draft(request.user, event)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=s.UnpairedSerializer)
    @action(detail=True, methods=["post"])
    def unpair(self, request: Request, slug: str) -> Response:
        """Withdraw the latest published round; refused (422) once a result was entered in
        it."""
        event = self._changing_rounds(request, "unpair")
        return Response({"round": swiss.unpair(request.user, event)})

    @extend_schema(
        request=s.EntryImportSerializer,
        responses={201: s.EntrySerializer(many=True), 200: s.EntryImportPreviewSerializer},
    )
    @action(detail=True, methods=["post"], url_path="import-entries")
    def import_entries(self, request: Request, slug: str) -> Response:
        """Enter many entrants from a CSV at once (organisers), every row or none: a file
        with any bad row is refused (422 `bad_csv`) with `problems`, one per bad row, and
        nothing is entered. `dry_run` answers the preview instead (200)."""
        event = self._organised(request)
        data = _valid(s.EntryImportSerializer, request)
        if data["dry_run"]:
            preview = entries.preview_entrants(event, data["csv"], add_players=data["add_players"])
            return Response(s.import_preview(preview))
        try:
            made = entries.import_entrants(
                request.user, event, data["csv"], add_players=data["add_players"]
            )
        except entries.ImportRefused as refused:
            response = exception_handler(refused, {})
            response.data["error"]["problems"] = refused.preview.problems()
            return response
        body = s.EntrySerializer(made, many=True, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_201_CREATED)

    # Running the other formats: seeds, dry runs and the drawn result, the same services as
    # the run page.

    def _seeds(self, event: Event, data: dict) -> list[Entry] | None:
        """The seeds given by hand (entries of this event, each once), or None."""
        if "seeds" not in data:
            return None
        found = Entry.objects.in_bulk(data["seeds"])
        seeds = [found[pk] for pk in data["seeds"] if pk in found]
        if len(seeds) != len(data["seeds"]) or any(e.event_id != event.pk for e in seeds):
            raise ValidationError({"seeds": [_("Seed entries of this event, each once.")]})
        return seeds

    @staticmethod
    def _drawn(body: dict, dry_run: bool) -> Response:
        return Response(body, status=status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SeedsSerializer,
        responses={201: s.BracketSerializer, 200: s.BracketSerializer},
    )
    @action(detail=True, methods=["post"], url_path="draw-bracket")
    def draw_bracket(self, request: Request, slug: str) -> Response:
        """Seed and draw the bracket of a single- or double-elimination event (201), or with
        `dry_run` show the bracket it would draw (200, nothing saved). It moves on by itself
        as results are confirmed; a correction that changes a winner resets what depended on
        it (see the match's `correction-preview`)."""
        event = self._changing_rounds(request, "draw-bracket")
        data = _valid(s.SeedsSerializer, request)
        seeds = self._seeds(event, data)
        if data["dry_run"]:
            return self._drawn(
                bracket_body(brackets.preview_bracket(request.user, event, seeds)), True
            )
        bracket = brackets.create_bracket(request.user, event, seeds)
        return self._drawn(bracket_body(brackets.drawn(bracket)), False)

    @extend_schema(
        request=s.SeedsSerializer,
        responses={201: s.GroupDrawSerializer, 200: s.GroupDrawSerializer},
    )
    @action(detail=True, methods=["post"], url_path="draw-groups")
    def draw_groups(self, request: Request, slug: str) -> Response:
        """Draw the groups of a groups-and-playoff event by snake seeding (the options'
        `groups`), and make every round of their round robins (201); with `dry_run`, show the
        groups it would draw (200, nothing saved). Refused (422) once drawn."""
        event = self._changing_rounds(request, "draw-groups")
        data = _valid(s.SeedsSerializer, request)
        seeds = self._seeds(event, data)
        draw = (groups.preview_groups if data["dry_run"] else groups.draw_groups)(
            request.user, event, seeds
        )
        body = {
            "groups": [{"name": name, "entries": members} for name, members in draw.groups],
            "seeds": draw.seeds,
            "rounds": draw.rounds,
        }
        return self._drawn(s.GroupDrawSerializer(body).data, data["dry_run"])

    @extend_schema(
        request=s.DryRunSerializer,
        responses={201: s.BracketSerializer, 200: s.BracketSerializer},
    )
    @action(detail=True, methods=["post"])
    def playoff(self, request: Request, slug: str) -> Response:
        """Start the playoff of a groups-and-playoff event: the best of each group (the
        options' `qualifiers_per_group`), group winners first and kept apart, in a single or
        double elimination bracket (201); with `dry_run`, the bracket it would draw (200).
        Refused (422 `groups_unfinished`) while a group match lacks a confirmed result."""
        event = self._changing_rounds(request, "playoff")
        dry_run = _valid(s.DryRunSerializer, request)["dry_run"]
        if dry_run:
            return self._drawn(bracket_body(groups.preview_playoff(request.user, event)), True)
        bracket = groups.start_playoff(request.user, event)
        return self._drawn(bracket_body(brackets.drawn(bracket)), False)

    @extend_schema(
        request=s.DryRunSerializer,
        responses={201: s.SeatingSerializer, 200: s.SeatingSerializer},
    )
    @action(detail=True, methods=["post"])
    def seat(self, request: Request, slug: str) -> Response:
        """Seat the next round of an individual event: partners (never the same twice while
        it can be helped), tables and who sits out, or the next round of a whist schedule
        when the options say so (201); with `dry_run`, the seating it would make (200).
        Refused (422) while a table of the latest round lacks a confirmed result, or once
        every round is seated."""
        event = self._changing_rounds(request, "seat")
        dry_run = _valid(s.DryRunSerializer, request)["dry_run"]
        if dry_run:
            return self._drawn(seating_body(individual.preview_round(request.user, event)), True)
        round_ = individual.seat_round(request.user, event)
        return self._drawn(seating_body(individual.seating_of(round_), round_), False)

    @extend_schema(request=None, responses=s.UnpairedSerializer)
    @action(detail=True, methods=["post"])
    def unseat(self, request: Request, slug: str) -> Response:
        """Withdraw the latest seated round of an individual event; refused (422) once a
        table's result was entered in it."""
        event = self._changing_rounds(request, "unseat")
        return Response({"round": individual.unseat_round(request.user, event)})

    @extend_schema(responses=s.LiveScoreSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def live(self, request: Request, slug: str) -> Response:
        """The public scores of the event's matches played at live tables, round by round
        and table by table: the score, the hand in play and the table's state. Never a
        tile; `live/stream` follows them."""
        return Response(event_scores(self.get_object()))

    @extend_schema(
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="Server-Sent Events: `retry`, then `scores` events and comments.",
            )
        },
        description=SSE_DESCRIPTION,
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="live/stream",
        filter_backends=[],
        pagination_class=None,
        renderer_classes=[EventStreamRenderer, JSONRenderer],
    )
    def live_stream(self, request: Request, slug: str) -> StreamingHttpResponse:
        response = StreamingHttpResponse(
            score_stream(self.get_object()), content_type="text/event-stream"
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response

    @extend_schema(
        methods=["GET"],
        responses=s.AutopilotSerializer,
        description="How the online event runs itself, and its round clock (404 when it "
        "does not run itself).",
    )
    @extend_schema(
        methods=["PUT", "PATCH"],
        request=s.AutopilotSerializer,
        responses=s.AutopilotSerializer,
        description="Set how the online event runs itself (organisers, before its start): "
        "the fields sent change, `starts` required the first time. Each refusal is a 422 "
        "with its code (`start_in_past`, `check_in_too_long`, `bad_pause`, `round_too_short`, "
        "`autopilot_started`, ... as docs/online-events.md lists), and nothing changes.",
        extensions={"x-organisers-only": True},
    )
    @action(
        detail=True,
        methods=["get", "put", "patch"],
        filter_backends=[],
        pagination_class=None,
    )
    def autopilot(self, request: Request, slug: str) -> Response:
        if request.method == "GET":
            event = self.get_object()
            if not Autopilot.objects.filter(event=event).exists():
                raise Http404
            return Response(autopilot_body(event))
        event = self._organised(request)
        data = _valid(s.AutopilotSerializer, request, partial=True)
        league_autopilot.configure(request.user, event, **data)
        return Response(autopilot_body(event))

    def _control(self, request: Request, control) -> Response:
        event = self._organised(request)
        control(request.user, event)
        return Response(autopilot_body(event))

    @extend_schema(request=None, responses=s.AutopilotSerializer)
    @action(detail=True, methods=["post"], url_path="autopilot/pause")
    def autopilot_pause(self, request: Request, slug: str) -> Response:
        """Stop the automatic steps (matches in play go on); 422 `already_paused`."""
        return self._control(request, league_autopilot.pause)

    @extend_schema(request=None, responses=s.AutopilotSerializer)
    @action(detail=True, methods=["post"], url_path="autopilot/resume")
    def autopilot_resume(self, request: Request, slug: str) -> Response:
        """The automatic steps go on; 422 `not_paused`."""
        return self._control(request, league_autopilot.resume)

    @extend_schema(request=s.ExtendSerializer, responses=s.AutopilotSerializer)
    @action(detail=True, methods=["post"], url_path="autopilot/extend")
    def autopilot_extend(self, request: Request, slug: str) -> Response:
        """Give the round in play more minutes (its deadline and its tables' time limit);
        422 `bad_minutes`, `no_round_in_play`, `deadline_passed`."""
        event = self._organised(request)  # who may, before what was sent
        minutes = _valid(s.ExtendSerializer, request)["minutes"]
        live_autopilot.extend_round(request.user, event, minutes)
        return Response(autopilot_body(event))

    @extend_schema(request=None, responses=s.AutopilotSerializer)
    @action(detail=True, methods=["post"], url_path="autopilot/repair")
    def autopilot_repair(self, request: Request, slug: str) -> Response:
        """Pair the round in play again, until a move is made at any of its tables; 422
        `round_started`, `not_repairable`, `no_round_in_play`."""
        return self._control(request, live_autopilot.repair_round)

    @extend_schema(request=s.AutopilotWithdrawSerializer, responses=s.AutopilotSerializer)
    @action(detail=True, methods=["post"], url_path="autopilot/withdraw")
    def autopilot_withdraw(self, request: Request, slug: str) -> Response:
        """Withdraw an entry of the event: its table in play closes, forfeited by its side;
        422 `not_active` when it was withdrawn already."""
        event = self._organised(request)
        pk = _valid(s.AutopilotWithdrawSerializer, request)["entry"]
        entry = get_object_or_404(Entry, pk=pk, event=event)
        live_autopilot.withdraw_entry(request.user, entry)
        return Response(autopilot_body(event))

    @extend_schema(responses=s.BracketSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def bracket(self, request: Request, slug: str) -> Response:
        """The elimination bracket (or a group stage's playoff), slot by slot."""
        bracket = Bracket.objects.filter(event=self.get_object()).first()
        if bracket is None:
            raise Http404
        return Response(bracket_body(brackets.drawn(bracket)))


def bracket_body(draw: brackets.Draw) -> dict:
    return s.BracketSerializer({**vars(draw), "slots": [vars(v) for v in draw.slots]}).data


def seating_body(seating: individual.Seating, round_: Round | None = None) -> dict:
    """A round's seating (or a preview's), with each table's result once entered."""
    players = Entry.objects.in_bulk(
        [pk for table in seating.tables for side in table for pk in side]
        + list(seating.sitting_out)
    )
    outcome = {r.table: r for r in round_.table_results.all()} if round_ is not None else {}
    tables = [
        {
            "table": number,
            "side_a": [players[pk] for pk in side_a],
            "side_b": [players[pk] for pk in side_b],
            "result": outcome.get(number),
        }
        for number, (side_a, side_b) in enumerate(seating.tables, 1)
    ]
    body = {
        "round": round_.pk if round_ is not None else None,
        "number": seating.number,
        "tables": tables,
        "sitting_out": [players[pk] for pk in seating.sitting_out],
    }
    return s.SeatingSerializer(body).data


def standings_body(event: Event, division: int | None) -> dict:
    tables = [t for t in standing_tables(event) if not division or t["division"] == division]
    if division and not tables:
        raise ValidationError({"division": [UNKNOWN]})
    return s.StandingsSerializer(
        {"event": event.slug, "results_version": event.results_version, "tables": tables}
    ).data


def standing_tables(event: Event) -> list[dict]:
    """The tables that the event's format ranks: each with its name, tiebreaks and rows."""
    base = {"division": None, "name": "", "tiebreaks": event.tiebreaks, "rounds": []}
    if event.format == Event.Format.LEAGUE:
        return [
            {
                **base,
                "division": d.pk if d else None,
                "name": d.name if d else "",
                "rounds": table.rounds,
                "standings": table.standings,
            }
            for d in (list(event.divisions.all()) or [None])
            for table in [standings.table(event, d)]
        ]
    if event.format == Event.Format.INDIVIDUAL:
        rows = [
            {**vars(row), "entry": row.player, "point_difference": row.point_difference}
            for row in tournament_standings.individual_table(event)
        ]
        return [{**base, "standings": rows}]
    if event.format == Event.Format.GROUPS_PLAYOFF:
        return [
            {**base, "name": group.name, "standings": rows}
            for group, rows in tournament_standings.group_tables(event)
        ]
    return [{**base, "standings": tournament_standings.pairs_standings(event)}]


def autopilot_body(event: Event) -> dict:
    """The event's autopilot settings, and where it is (its round clock)."""
    event = Event.objects.get(pk=event.pk)
    pilot = Autopilot.objects.get(event=event)
    fields = {name: getattr(pilot, name) for name in league_autopilot.SETTINGS}
    return s.AutopilotSerializer(
        fields
        | {"match_format": event.match_format, "time_limit": event.time_limit}
        | {"turn_seconds": events.rules_of(event).turn_seconds}
        | {"paused": pilot.paused, "started": pilot.started, "finished": pilot.finished}
        | {"clock": clock(event, pilot).as_json()}
    ).data


def _valid(serializer_class, request: Request, data=None, partial: bool = False) -> dict:
    serializer = serializer_class(
        data=request.data if data is None else data, partial=partial, context={"request": request}
    )
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# Rounds, entries, fixtures and results ---------------------------------------------------


def number_filter(**kwargs) -> django_filters.NumberFilter:
    """A whole number in the database's range (a bigger one is a 400, not a failed query)."""
    return django_filters.NumberFilter(min_value=1, max_value=MAX_ID, decimal_places=0, **kwargs)


class RoundFilter(FilterSet):
    event = SlugFilter(queryset=seen(Event))
    division = IdFilter(queryset=seen(Division, "event"))
    number = number_filter(field_name="number")

    class Meta:
        model = Round
        fields = ["event", "division", "number"]


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """The rounds of events: a league's fixtures by round, a tournament's rounds, a
    bracket's named rounds, an individual event's seated rounds."""

    serializer_class = s.RoundSerializer
    filterset_class = RoundFilter
    ordering_fields = ["number", "date"]
    ordering = ["event_id", "division_id", "number"]

    queryset = Round.objects.select_related("event")
    event_field = "event"

    @extend_schema(responses=s.SeatingSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def seating(self, request: Request, pk: str) -> Response:
        """An individual event's round: who partners whom at which table, who sits it out,
        and each table's result once entered (404 for other formats' rounds)."""
        round_ = self.get_object()
        if round_.event.format != Event.Format.INDIVIDUAL:
            raise Http404
        return Response(seating_body(individual.seating_of(round_), round_))


class TableResultFilter(FilterSet):
    event = SlugFilter(field_name="round__event", queryset=seen(Event))
    round = IdFilter(queryset=seen(Round, "event"))
    table = number_filter(field_name="table")

    class Meta:
        model = TableResult
        fields = ["event", "round", "table", "status"]


class TableResultViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, ApiViewSet
):
    """The results of an individual event's tables (`POST` enters one, as the run page's
    table form does)."""

    serializer_class = s.TableResultSerializer
    filterset_class = TableResultFilter
    ordering_fields = ["table", "updated"]
    ordering = ["round__event_id", "round__number", "table"]

    queryset = TableResult.objects.select_related("round__event")
    event_field = "round__event"

    def perform_create(self, serializer) -> None:
        data = serializer.validated_data
        write(self.request, data["round"].event)
        serializer.instance = individual.enter_table_result(
            self.request.user, data["round"], data["table"], data["points_a"], data["points_b"]
        )

    @extend_schema(request=None, responses=s.TableResultSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        """A second person (a referee, or an opponent at the table) agrees: the table's
        result counts from now on."""
        result = individual.confirm_table_result(request.user, self.get_object())
        return Response(self.get_serializer(result).data)


class EntryFilter(FilterSet):
    event = SlugFilter(queryset=seen(Event))
    division = IdFilter(queryset=seen(Division, "event"))
    team = IdFilter(queryset=seen(Entry, "event"))
    club = IdFilter(queryset=Organisation.objects.all())

    class Meta:
        model = Entry
        fields = ["event", "status", "division", "team", "club"]


class EntryViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    ApiViewSet,
):
    """Entries: registered by organisers (or by a player while registration is open)."""

    http_method_names = ["get", "post", "delete", "head", "options"]

    serializer_class = s.EntrySerializer
    filterset_class = EntryFilter
    ordering_fields = ["registered", "name", "lot"]
    ordering = ["registered"]

    queryset = Entry.objects.select_related("event", "club", "player_1", "player_2")
    event_field = "event"

    def perform_create(self, serializer) -> None:
        fields = dict(serializer.validated_data)
        event = fields.pop("event")
        write(self.request, event)
        # Players as the page's entry form picks them: the organiser's roster, or oneself.
        picks = {
            role: entries.Pick(pk=player.pk) if player is not None else None
            for role in ("player_1", "player_2", "captain")
            for player in [fields.pop(role, None)]
        }
        serializer.instance = entries.enter_picked(self.request.user, event, **picks, **fields)

    def perform_destroy(self, instance: Entry) -> None:
        """Delete an entry made by mistake (organisers): refused (422 `entry_drawn`) once
        the event's rounds or draw are made, when it is withdrawn instead."""
        entries.delete_entry(self.request.user, instance)

    @extend_schema(request=None, responses=s.EntrySerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        """Check the entry in (its captain or an organiser): once anyone has checked in, a
        tournament's rounds pair only the entries that did. Checking in again changes
        nothing; refused (422 `check_in_closed`) while the event's check-in is closed."""
        entry = self.get_object()
        return Response(self.get_serializer(entries.check_in(request.user, entry)).data)

    @extend_schema(request=None, responses=s.EntrySerializer)
    @action(detail=True, methods=["post"], url_path="undo-check-in")
    def undo_check_in(self, request: Request, pk: str) -> Response:
        """Undo the entry's check-in (its captain or an organiser) while check-in is open.
        Undoing it again changes nothing."""
        entry = self.get_object()
        return Response(self.get_serializer(entries.undo_check_in(request.user, entry)).data)

    @extend_schema(request=s.WithdrawSerializer, responses=s.EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        """Withdraw (the entry's captain or an organiser) or disqualify (organisers)."""
        entry = self.get_object()
        data = _valid(s.WithdrawSerializer, request)
        entry = entries.withdraw(
            request.user, entry, disqualify=data["disqualify"], reason=data["reason"]
        )
        return Response(self.get_serializer(entry).data)


class MatchFilter(FilterSet):
    event = SlugFilter(queryset=seen(Event))
    round = number_filter(field_name="round__number")
    division = IdFilter(field_name="round__division", queryset=seen(Division, "event"))
    entry = IdFilter(method="of_entry", queryset=seen(Entry, "event"))
    parent = IdFilter(queryset=seen(Match, "event"))

    class Meta:
        model = Match
        fields = ["event", "round", "division", "status", "parent"]

    def of_entry(self, queryset, name, value):
        return queryset.filter(Q(entry_a=value) | Q(entry_b=value))


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Fixtures and pairings with their current result; results are entered here."""

    http_method_names = ["get", "post", "patch", "head", "options"]

    serializer_class = s.MatchSerializer
    filterset_class = MatchFilter
    ordering_fields = ["scheduled", "table"]
    ordering = ["event_id", "round__number", "table"]

    queryset = Match.objects.select_related(
        "event", "round", "entry_a", "entry_b"
    ).prefetch_related(CURRENT)
    event_field = "event"

    def list(self, request: Request, *args, **kwargs) -> Response:
        """Read from the columns shown, without model instances: a fixed number of queries
        (count, page, current results) whatever the page size."""
        kept_as = fixtures_kept_as(request) if plain_json(request) else None
        current = generation(kept_as.slug) if kept_as is not None else None
        matches = self.filter_queryset(self.get_queryset()).values(*s.MATCH_COLUMNS)
        page = self.paginate_queryset(matches)
        response = self.get_paginated_response(s.match_rows(page))
        # The same list for every caller, unless it is a draft's (its organisers' alone); an
        # empty one is not worth a place in the cache.
        if kept_as is not None and page and all(row["event__status"] != DRAFT for row in page):
            response.keep_as = (kept_as, current)
        return response

    def _written(self, match: Match) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(request=s.PatchScheduleSerializer, responses=s.MatchSerializer)
    def partial_update(self, request: Request, pk: str) -> Response:
        """Change any of the match's date, venue and table, as the match's page does (the
        `schedule` action with only what changes); refused (422) once it was played."""
        match = self.get_object()
        data = _valid(s.PatchScheduleSerializer, request)
        scheduled = data.get("scheduled", match.scheduled)
        fixtures.reschedule(request.user, match, scheduled, data.get("venue"), data.get("table"))
        return self._written(match)

    @extend_schema(request=s.ScheduleSerializer, responses=s.MatchSerializer)
    @action(detail=True, methods=["post"])
    def schedule(self, request: Request, pk: str) -> Response:
        """Set the match's date, venue and table (a postponed match is scheduled again)."""
        match = self.get_object()
        data = _valid(s.ScheduleSerializer, request)
        fixtures.reschedule(
            request.user, match, data["scheduled"], data.get("venue"), data.get("table")
        )
        return self._written(match)

    @extend_schema(request=None, responses=s.MatchSerializer)
    @action(detail=True, methods=["post"])
    def postpone(self, request: Request, pk: str) -> Response:
        match = self.get_object()
        fixtures.postpone(request.user, match)
        return self._written(match)

    @extend_schema(request=s.ResultInputSerializer, responses={201: s.ResultSerializer})
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str) -> Response:
        """Propose the match's result, game by game; hand records given with a game are
        adjudicated by the engine and kept with their rulings."""
        match = self.get_object()
        data = _valid(s.ResultInputSerializer, request)
        result = results.enter_result(
            request.user, match, data["games"], data["note"], lisa=data["lisa"]
        )
        return Response(s.ResultSerializer(result).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.CorrectionSerializer, responses={201: s.ResultSerializer})
    @action(detail=True, methods=["post"])
    def correction(self, request: Request, pk: str) -> Response:
        """An organiser corrects the confirmed result (a note saying why is required). In a
        bracket, a correction that changes the winner must name in `reset` exactly the later
        matches that it resets (see `correction-preview`), else it is refused (422
        `confirm_reset`) and nothing changes."""
        match = self.get_object()
        data = _valid(s.CorrectionSerializer, request)
        if BracketSlot.objects.filter(match=match).exists():
            brackets.correct_result(
                request.user, match, data["games"], data["note"], data["reset"], lisa=data["lisa"]
            )
            result = match.results.get(status=Result.Status.CONFIRMED)
        else:
            result = results.correct_result(
                request.user, match, data["games"], data["note"], lisa=data["lisa"]
            )
        return Response(s.ResultSerializer(result).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ResultInputSerializer, responses=s.MatchSerializer(many=True))
    @action(
        detail=True,
        methods=["post"],
        url_path="correction-preview",
        filter_backends=[],
        pagination_class=None,
    )
    def correction_preview(self, request: Request, pk: str) -> Response:
        """What a correction to these games would reset: the bracket's later matches that
        depended on this one's winner (empty when the winner stays). Changes nothing."""
        match = self.get_object()
        data = _valid(s.ResultInputSerializer, request)
        require(request.user, "event.manage", match.event)
        reset = brackets.reset_preview(match, data["games"])
        return Response(
            s.match_rows(
                Match.objects.filter(pk__in=[m.pk for m in reset])
                .order_by("round__number", "table")
                .values(*s.MATCH_COLUMNS)
            )
        )

    @extend_schema(responses=s.LiveScoreSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def live(self, request: Request, pk: str) -> Response:
        """The public score of this match's live table (404 when it is not played at
        one): never a tile."""
        score = match_score(self.get_object())
        if score is None:
            raise Http404
        return Response(score)

    @extend_schema(responses=s.LiveHandSerializer(many=True))
    @action(
        detail=True,
        methods=["get"],
        url_path="live-hands",
        filter_backends=[],
        pagination_class=None,
    )
    def live_hands(self, request: Request, pk: str) -> Response:
        """The finished hands of the live table that played this match, as `domino-hand/1`
        records with the engine's rulings, cut as the pages show them: the hand in play is
        never shown, nor the tiles of a draw game's boneyard that nobody drew."""
        match = self.get_object()
        table = getattr(match, "live_table", None)
        hands = table.hands.order_by("number") if table is not None else []
        data = [
            {"hand": h.number, "record": shown_record(h.record), "ruling": h.ruling} for h in hands
        ]
        return Response(s.LiveHandSerializer(data, many=True).data)


class ResultFilter(FilterSet):
    event = SlugFilter(field_name="match__event", queryset=seen(Event))
    match = IdFilter(queryset=seen(Match, "event"))

    class Meta:
        model = Result
        fields = ["event", "match", "status"]


class ResultViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Results: proposed by one person, confirmed by a second; corrections keep history."""

    serializer_class = s.ResultSerializer
    filterset_class = ResultFilter
    ordering_fields = ["entered", "confirmed"]
    ordering = ["-entered"]

    queryset = Result.objects.select_related("match__event")
    event_field = "match__event"

    def _decide(self, request: Request, service, body=None) -> Response:
        """`service` on the result, with what the body gives (`body`, a serializer)."""
        result = self.get_object()
        given = _valid(body, request) if body is not None else {}
        return Response(self.get_serializer(service(request.user, result, **given)).data)

    @extend_schema(request=None, responses=s.ResultSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        """The second person agrees: the result counts from now on."""
        return self._decide(request, results.confirm_result)

    @extend_schema(request=s.NoteSerializer, responses=s.ResultSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str) -> Response:
        """The second person disagrees: an organiser settles it."""
        return self._decide(request, results.dispute_result, s.NoteSerializer)

    @extend_schema(responses=s.HandRecordSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def hands(self, request: Request, pk: str) -> Response:
        """The result's finished hands as `domino-hand/1` records, with the engine's rulings."""
        result = self.get_object()
        return Response(s.HandRecordSerializer(s.hand_records(result), many=True).data)


# Webhooks -----------------------------------------------------------------------------------


class WebhookViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    ApiViewSet,
):
    """The webhooks of the organisations the caller owns (with a key: its organisation's),
    their deliveries, a ping to try one, and a failed delivery sent again. Managed by the
    organisation's owners, as on its "API and webhooks" page."""

    serializer_class = s.WebhookSerializer
    filterset_fields = ["active"]
    ordering_fields = ["created"]
    ordering = ["-created"]
    queryset = Webhook.objects.select_related("organisation")

    def get_queryset(self) -> QuerySet:
        if not self.request.user.is_authenticated:
            return self.queryset.none()
        owned = set(hooks.administered(self.request.user))
        key = api_key(self.request)
        if key is not None:
            owned &= {key.organisation_id}
        return self.queryset.filter(organisation_id__in=owned)

    def create(self, request: Request, *args, **kwargs) -> Response:
        data = _valid(s.WebhookSerializer, request)
        check_scope(request, data["organisation"])
        webhook = hooks.create_webhook(
            request.user, data["organisation"], data["url"], data["topics"]
        )
        body = s.WebhookSerializer(webhook, context={"created": True}).data
        return Response(body, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: Webhook) -> None:
        check_scope(self.request, instance.organisation)
        hooks.delete_webhook(self.request.user, instance)

    @extend_schema(request=s.WebhookChangeSerializer, responses=s.WebhookSerializer)
    def partial_update(self, request: Request, pk: str) -> Response:
        """Change the webhook's topics, or turn it off and on again (`active`): its address
        and its signing secret stay as they are. A webhook that is off is sent nothing."""
        webhook = self.get_object()
        check_scope(request, webhook.organisation)
        data = _valid(s.WebhookChangeSerializer, request)
        webhook = hooks.change_webhook(request.user, webhook, **data)
        return Response(self.get_serializer(webhook).data)

    @extend_schema(request=None, responses={201: s.DeliverySerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def ping(self, request: Request, pk: str) -> Response:
        """Send the webhook a `ping`, whatever its topics, to try the receiver."""
        webhook = self.get_object()
        check_scope(request, webhook.organisation)
        delivery = hooks.ping(request.user, webhook)
        return Response(s.DeliverySerializer(delivery).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[UPDATED_SINCE], responses=s.DeliverySerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def deliveries(self, request: Request, pk: str) -> Response:
        """The webhook's deliveries, newest first: what was sent and how it was answered
        (with `updated_since`, those sent, answered or sent again since then)."""
        deliveries = self.get_object().deliveries.order_by("-created", "pk")
        page = self.paginate_queryset(UpdatedSince.since(request, deliveries))
        return self.get_paginated_response(s.DeliverySerializer(page, many=True).data)

    @extend_schema(request=s.RedeliverSerializer, responses=s.DeliverySerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def redeliver(self, request: Request, pk: str) -> Response:
        """Send a failed delivery again (refused with 422 `not_failed` otherwise)."""
        webhook = self.get_object()
        data = _valid(s.RedeliverSerializer, request)
        check_scope(request, webhook.organisation)
        delivery = get_object_or_404(Delivery, webhook=webhook, pk=data["delivery"])
        return Response(s.DeliverySerializer(hooks.redeliver(request.user, delivery)).data)
