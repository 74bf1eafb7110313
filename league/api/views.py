"""REST API v1: thin views over the same services, permissions and rules as the web pages.

Reads are public (drafts only for their organisers, as on the site); writes go through the
competition services with the caller (a signed-in user, or the owner behind an API key), and
a key never reaches beyond its organisation or its access.
"""

import json

import django_filters
from django import forms
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
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

from config.api import exception_handler
from games.stats.selectors import statistics as player_statistics
from league.models import Entry, Event, Match, Organisation, Player, Result, Round
from league.permissions import can, require
from league.ratings import services as ratings
from league.ratings.models import RatingPool
from league.services import clubs, entries, events, fixtures, results, standings
from league.tournaments.models import Bracket, BracketSlot, DraftPairing
from league.tournaments.services import brackets, swiss
from league.tournaments.services import standings as tournament_standings

from . import serializers as s
from . import services as hooks
from .auth import THROTTLES, ApiKeyAuthentication, KeyScope, api_key, check_scope, may_see
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


class EventStreamRenderer(BaseRenderer):
    """`text/event-stream` for the live scores' stream (its errors are JSON)."""

    media_type = "text/event-stream"
    format = "sse"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return json.dumps(data).encode()


class UpdatedSince(BaseFilterBackend):
    """`?updated_since=`: a list's rows that changed at or after that time (RFC 3339)."""

    @staticmethod
    def tracked(view) -> bool:
        return any(f.name == "updated" for f in view.queryset.model._meta.fields)

    def filter_queryset(self, request: Request, queryset: QuerySet, view) -> QuerySet:
        wanted = "updated_since" in request.query_params
        if view.action != "list" or not wanted or not self.tracked(view):
            return queryset
        since = _valid(s.UpdatedSinceSerializer, request, request.query_params)["updated_since"]
        return queryset.filter(updated__gte=since)

    def get_schema_operation_parameters(self, view) -> list[dict]:
        if not self.tracked(view):
            return []
        return [
            {
                "name": "updated_since",
                "in": "query",
                "required": False,
                "description": (
                    "Only what was created or changed at or after this time (RFC 3339), "
                    "each row's `updated`. A change is stamped just before it commits: to "
                    "poll, ask again from a minute before the newest `updated` you saw. "
                    "Deleted rows are not listed."
                ),
                "schema": {"type": "string", "format": "date-time"},
            }
        ]


class ApiViewSet(ConditionalGetMixin, viewsets.GenericViewSet):
    """Lists leave out what belongs to draft events; one object of a draft event is found
    by its organisers only (`event_field` leads from the object to its event)."""

    authentication_classes = [ApiKeyAuthentication, SessionAuthentication]
    permission_classes = [KeyScope]
    throttle_classes = THROTTLES
    pagination_class = Pagination
    filter_backends = [FilterBackend, UpdatedSince, StableOrdering]
    lookup_value_regex = "[0-9]{1,18}"
    event_field: str | None = None

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        if self.event_field and self.action == "list":
            queryset = queryset.exclude(**{f"{self.event_field}__status": Event.Status.DRAFT})
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


class OrganisationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Clubs, associations and federations."""

    queryset = Organisation.objects.select_related("parent")
    serializer_class = s.OrganisationSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG
    filterset_fields = ["kind", "country", "parent__slug"]
    ordering_fields = ["name", "created"]
    ordering = ["name"]


class ClubViewSet(OrganisationViewSet):
    """The organisations that are clubs."""

    queryset = Organisation.objects.filter(kind=Organisation.Kind.CLUB).select_related("parent")
    filterset_fields = ["country", "parent__slug"]


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Players, public fields only. A club's organisers change a roster player's name and
    contact details (PUT, PATCH), as on the club's roster page."""

    queryset = Player.objects.select_related("club")
    serializer_class = s.PlayerSerializer
    filterset_fields = ["club__slug", "country"]
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
            OpenApiParameter("club", str, description="Only this club's players (its slug)."),
            OpenApiParameter("country", str, description="Only this country's players."),
        ],
        responses=s.LeaderboardRowSerializer(many=True),
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def leaderboard(self, request: Request, slug: str) -> Response:
        """The pool's leaderboard, best first."""
        wanted = _valid(s.LeaderboardFilterSerializer, request, request.query_params)
        club = get_object_or_404(Organisation, slug=wanted["club"]) if wanted["club"] else None
        rows = ratings.leaderboard(self.get_object(), club=club, country=wanted["country"])
        page = self.paginate_queryset(rows)
        start = self.paginator.page.start_index()
        for position, rating in enumerate(page, start=start):
            rating.position = position
        serializer = s.LeaderboardRowSerializer(
            page, many=True, context=self.get_serializer_context()
        )
        return self.get_paginated_response(serializer.data)


# Events ---------------------------------------------------------------------------------


class EventFilter(FilterSet):
    organisation = django_filters.CharFilter(field_name="organisation__slug")

    class Meta:
        model = Event
        fields = ["organisation", "season", "status", "format", "mode", "entry_kind"]


class EventViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    ApiViewSet,
):
    """Events: listed once out of draft; created and edited by their organisers."""

    serializer_class = s.EventSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG
    filterset_class = EventFilter
    ordering_fields = ["created", "name", "registration_opens"]
    ordering = ["-created"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    queryset = Event.objects.select_related("organisation").prefetch_related("divisions")

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        if self.action == "list":
            queryset = queryset.exclude(status=Event.Status.DRAFT)
        return super().filter_queryset(queryset)

    def get_object(self) -> Event:
        return reached(self.request, super().get_object())

    def perform_create(self, serializer) -> None:
        fields = dict(serializer.validated_data)
        organisation = fields.pop("organisation")
        check_scope(self.request, organisation)
        serializer.instance = events.create_event(self.request.user, organisation, **fields)

    def perform_update(self, serializer) -> None:
        serializer.instance = events.update_event(
            self.request.user, serializer.instance, **serializer.validated_data
        )

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
        event = self._organised(request)
        return self._draft(event, swiss.pair_round(request.user, event))

    @extend_schema(request=s.SwapSerializer, responses=s.DraftPairingSerializer(many=True))
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def swap(self, request: Request, slug: str) -> Response:
        """Exchange two entries' places in the draft; both tables become pinned."""
        event = self._organised(request)
        data = _valid(s.SwapSerializer, request)
        first, second = (
            get_object_or_404(Entry, event=event, pk=data[side]) for side in ("first", "second")
        )
        return self._draft(event, swiss.swap(request.user, event, first, second))

    @extend_schema(request=s.PinSerializer, responses=s.DraftPairingSerializer(many=True))
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def pin(self, request: Request, slug: str) -> Response:
        """Pin (or unpin) a draft table: pairing the round again keeps it."""
        event = self._organised(request)
        data = _valid(s.PinSerializer, request)
        pairing = get_object_or_404(DraftPairing, event=event, pk=data["pairing"])
        swiss.pin(request.user, pairing, data["pinned"])
        return self._draft(event)

    @extend_schema(request=None, responses={201: s.RoundSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def publish(self, request: Request, slug: str) -> Response:
        """The draft becomes the round that everyone sees and plays."""
        event = self._organised(request)
        round_ = swiss.publish(request.user, event)
        return Response(s.RoundSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], url_path="discard-draft")
    def discard_draft(self, request: Request, slug: str) -> Response:
        """Throw the draft round away."""
        event = self._organised(request)
        swiss.discard_draft(request.user, event)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=s.UnpairedSerializer)
    @action(detail=True, methods=["post"])
    def unpair(self, request: Request, slug: str) -> Response:
        """Withdraw the latest published round; refused (422) once a result was entered in
        it."""
        event = self._organised(request)
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

    @extend_schema(request=s.DrawBracketSerializer, responses={201: s.BracketSerializer})
    @action(detail=True, methods=["post"], url_path="draw-bracket")
    def draw_bracket(self, request: Request, slug: str) -> Response:
        """Seed and draw the bracket of a single- or double-elimination event. It moves on
        by itself as results are confirmed; a correction that changes a winner resets what
        depended on it (see the match's `correction-preview`)."""
        event = self._organised(request)
        data = _valid(s.DrawBracketSerializer, request)
        seeds = None
        if "seeds" in data:
            found = Entry.objects.in_bulk(data["seeds"])
            seeds = [found[pk] for pk in data["seeds"] if pk in found]
            if len(seeds) != len(data["seeds"]) or any(e.event_id != event.pk for e in seeds):
                raise ValidationError({"seeds": [_("Seed entries of this event, each once.")]})
        bracket = brackets.create_bracket(request.user, event, seeds)
        return Response(bracket_body(bracket), status=status.HTTP_201_CREATED)

    @extend_schema(responses=s.LiveScoreSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def live(self, request: Request, slug: str) -> Response:
        """The public scores of the event's matches played at live tables, round by round
        and table by table: the score, the hand in play and the table's state. Never a
        tile; `live/stream` follows them."""
        return Response(event_scores(self.get_object()))

    @extend_schema(
        responses={(200, "text/event-stream"): OpenApiTypes.STR},
        description=(
            "The event's live scores as Server-Sent Events: a `scores` event (data: the "
            "list that `live` answers) at once and whenever a score changes; comments keep a "
            "quiet stream open. The stream ends after a few minutes and the browser's "
            "EventSource reconnects by itself."
        ),
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

    @extend_schema(responses=s.BracketSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def bracket(self, request: Request, slug: str) -> Response:
        """The elimination bracket (or a group stage's playoff), slot by slot."""
        bracket = Bracket.objects.filter(event=self.get_object()).first()
        if bracket is None:
            raise Http404
        return Response(bracket_body(bracket))


def bracket_body(bracket: Bracket) -> dict:
    body = {
        **{
            f: getattr(bracket, f)
            for f in ("kind", "third_place", "grand_final_reset", "first_round")
        },
        "slots": [vars(slot) for slot in brackets.bracket_view(bracket)],
    }
    return s.BracketSerializer(body).data


def standings_body(event: Event, division: int | None) -> dict:
    tables = [t for t in standing_tables(event) if not division or t["division"] == division]
    if division and not tables:
        raise Http404
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
    return [{**base, "standings": tournament_standings.pairs_table(event)}]


def _valid(serializer_class, request: Request, data=None, partial: bool = False) -> dict:
    serializer = serializer_class(data=request.data if data is None else data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# Rounds, entries, fixtures and results ---------------------------------------------------


def number_filter(**kwargs) -> django_filters.NumberFilter:
    """A whole number in the database's range (a bigger one is a 400, not a failed query)."""
    return django_filters.NumberFilter(min_value=1, max_value=MAX_ID, decimal_places=0, **kwargs)


class RoundFilter(FilterSet):
    event = django_filters.CharFilter(field_name="event__slug")
    number = number_filter(field_name="number")

    class Meta:
        model = Round
        fields = ["event", "division", "number"]


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    serializer_class = s.RoundSerializer
    filterset_class = RoundFilter
    ordering_fields = ["number", "date"]
    ordering = ["event_id", "division_id", "number"]

    queryset = Round.objects.select_related("event")
    event_field = "event"


class EntryFilter(FilterSet):
    event = django_filters.CharFilter(field_name="event__slug")

    class Meta:
        model = Entry
        fields = ["event", "status", "division", "team", "club"]


class EntryViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, ApiViewSet
):
    """Entries: registered by organisers (or by a player while registration is open)."""

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

    @extend_schema(request=None, responses=s.EntrySerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        entry = self.get_object()
        return Response(self.get_serializer(entries.check_in(request.user, entry)).data)

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
    event = django_filters.CharFilter(field_name="event__slug")
    round = number_filter(field_name="round__number")
    division = number_filter(field_name="round__division")
    entry = number_filter(method="of_entry")

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
        rows = s.match_rows(self.paginate_queryset(matches))
        response = self.get_paginated_response(rows)
        # The same list for every caller (drafts' matches are never listed); an empty
        # one (a mistyped slug) is not worth a place in the cache.
        if kept_as is not None and rows:
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
    @action(detail=True, methods=["post"], url_path="correction-preview")
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
        records with the engine's rulings. The hand in play is never shown."""
        match = self.get_object()
        table = getattr(match, "live_table", None)
        hands = table.hands.order_by("number") if table is not None else []
        data = [{"hand": h.number, "record": h.record, "ruling": h.ruling} for h in hands]
        return Response(s.LiveHandSerializer(data, many=True).data)


class ResultFilter(FilterSet):
    event = django_filters.CharFilter(field_name="match__event__slug")

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

    @extend_schema(request=None, responses={201: s.DeliverySerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def ping(self, request: Request, pk: str) -> Response:
        """Send the webhook a `ping`, whatever its topics, to try the receiver."""
        webhook = self.get_object()
        check_scope(request, webhook.organisation)
        delivery = hooks.ping(request.user, webhook)
        return Response(s.DeliverySerializer(delivery).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=s.DeliverySerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def deliveries(self, request: Request, pk: str) -> Response:
        """The webhook's deliveries, newest first: what was sent and how it was answered."""
        page = self.paginate_queryset(self.get_object().deliveries.order_by("-created", "pk"))
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
