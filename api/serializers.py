"""What the API shows of the competition: public fields only, never a live hand's tiles."""

import datetime
from collections.abc import Callable, Mapping
from functools import cache, cached_property, partial
from typing import Any, cast

import jsonschema  # type: ignore[import-untyped]
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField, empty

from api.schema import HAND, HAND_RECORDS, RULING, json_schema
from games.models import Table
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
    Season,
)
from league.ratings.models import RatingPool
from league.services.audit import ACTIONS
from league.services.entries import MAX_CSV_BYTES, ImportPreview
from league.services.events import EDITABLE
from league.tournaments.models import DraftPairing, TableResult, Tournament
from league.tournaments.services.common import OPTION_FIELDS

from .auth import may_see
from .models import Delivery, Webhook

MAX_ID = 2**63 - 1


def _ids(**options: Any) -> serializers.ListField:
    """A list of up to 1024 row ids (each within the database's range)."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=1024, **options
    )


def rfc3339(value: datetime.datetime) -> str:
    """An aware time in RFC 3339, in its own zone, or in UTC where that zone's offset then
    had seconds (local mean time, such as -04:39:36 in Santo Domingo before 1890)."""
    if value.utcoffset().total_seconds() % 60:
        value = value.astimezone(datetime.UTC)
    text = value.isoformat()
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text


class DateTimeField(serializers.DateTimeField):
    """Always RFC 3339, in the site's time zone (see `rfc3339`)."""

    def to_representation(self, value: datetime.datetime | None) -> str | None:
        return None if value is None else rfc3339(self.enforce_timezone(value))


class CharField(serializers.CharField):
    """Text, as JSON writes it: a number or a boolean is not text (DRF's own field would
    take 0 as "0", though the schema says a string)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def _in_json_body(field: serializers.Field) -> bool:
    """Whether the field reads a JSON body (not a query string or a form, where every value
    is text)."""
    request = field.context.get("request")
    return (
        request is not None
        and "json" in (request.content_type or "")
        and field.root.initial_data is request.data
    )


class BooleanField(serializers.BooleanField):
    """True or false, as JSON writes them: in a JSON body 0, 1 or "yes" is not a boolean
    (DRF's own field would take them, though the schema says a boolean). Text that does not
    come from a JSON body (a query string) may say "true" or "false", as DRF reads it."""

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and not _in_json_body(self):
            return super().to_internal_value(data)
        self.fail("invalid", input=data)


class ModelSerializer(serializers.ModelSerializer):
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DateTimeField: DateTimeField,
        models.CharField: CharField,
        models.TextField: CharField,
        models.BooleanField: BooleanField,
    }


_ASK = object()  # the field must read the value itself
_CONVERSIONS: dict[Callable, Callable[[Any], Any]] = {
    serializers.IntegerField.to_representation: int,
    serializers.FloatField.to_representation: float,
    serializers.CharField.to_representation: str,
}


def _conversion(field: serializers.Field) -> Callable[[Any], Any]:
    """What `field.to_representation` makes of a value, as directly as it can be done."""
    method = type(field).to_representation
    if method in _CONVERSIONS:
        return _CONVERSIONS[method]
    if method is serializers.BooleanField.to_representation:
        own = field.to_representation
        return lambda value: value if type(value) is bool else own(value)
    if method is serializers.ListField.to_representation:
        child = _conversion(field.child)  # type: ignore[attr-defined]
        return lambda values: [None if value is None else child(value) for value in values]
    return field.to_representation


class PlainSerializer(serializers.Serializer):
    """Read-only rows made as DRF makes them, with each field's source and conversion
    worked out once per serializer instead of once per row and field: at 500 rows of 23
    fields (a standings table) DRF's per-field steps were most of the answer's time. A
    value that is not plain (missing, callable, a related object not there) is the field's
    own to read, as is every value of a serializer with a field that reads its own way
    (a related field's, a method's)."""

    @cached_property
    def _plan(self) -> list[tuple[str, str | None, serializers.Field, Callable]] | None:
        """Each field's name, its attribute (None for a dotted source), the field and its
        conversion; None if a field reads its values its own way."""
        plan: list[tuple[str, str | None, serializers.Field, Callable]] = []
        for field in self._readable_fields:
            if type(field).get_attribute is not serializers.Field.get_attribute:
                return None
            attr = field.source_attrs[0] if len(field.source_attrs) == 1 else None
            plan.append((cast(str, field.field_name), attr, field, _conversion(field)))
        return plan

    def to_representation(self, instance: Any) -> dict[str, Any]:
        if self._plan is None:
            return super().to_representation(instance)
        read = instance.get if isinstance(instance, Mapping) else partial(getattr, instance)
        row = {}
        for name, attr, field, convert in self._plan:
            value = _ASK  # a dotted source, a value missing or callable: DRF's own reading
            if attr is not None:
                try:
                    value = read(attr, _ASK)
                except ObjectDoesNotExist:  # a related object not there
                    value = _ASK
                if callable(value):
                    value = _ASK
            if value is _ASK:
                try:
                    value = field.get_attribute(instance)
                except SkipField:
                    continue
            row[name] = None if value is None else convert(value)
        return row


@cache
def _hand_schema() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema(HAND_RECORDS["DominoHand"]))


@extend_schema_field(HAND)
class HandRecordField(serializers.DictField):
    """A `domino-hand/1` record (games/schemas/domino-hand-1.json), as that schema writes
    it. A well-formed record may still break the rules: the engine's ruling shows how."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        record = super().to_internal_value(data)
        error = next(iter(_hand_schema().iter_errors(record)), None)
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path) or "record"
            raise serializers.ValidationError(
                _("Not a domino-hand/1 record at %(where)s: %(why)s")
                % {"where": where, "why": error.message}
            )
        return record


@extend_schema_field(RULING)
class RulingField(serializers.DictField):
    """A `domino-ruling/1` ruling (games/schemas/domino-ruling-1.json)."""


class QueryIntegerField(serializers.IntegerField):
    """A whole number in a query string: given empty (`?page_size=`), it is not a number,
    rather than absent."""

    def get_value(self, dictionary: Any) -> Any:
        return dictionary.get(self.field_name, empty)


class PageSerializer(serializers.Serializer):
    page = QueryIntegerField(min_value=1, required=False, default=None)
    page_size = QueryIntegerField(min_value=1, max_value=500, required=False, default=None)


class EventSlugField(serializers.SlugRelatedField):
    """An event by its slug. A draft is found only by those who may see it: anyone else gets
    exactly the answer a slug that does not exist gets."""

    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", queryset=Event.objects.all(), **kwargs)

    def to_internal_value(self, data: Any) -> Event:
        event = super().to_internal_value(data)
        request = self.context.get("request")
        if request is None or not may_see(request, event):
            self.fail("does_not_exist", slug_name=self.slug_field, value=str(data))
        return event


class OrganisationSerializer(ModelSerializer):
    parent = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Organisation
        fields = ["id", "slug", "name", "kind", "parent", "country", "city", "updated"]


class PlayerSerializer(ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    photo = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "display_name", "club", "country", "photo", "updated"]

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_photo(self, player: Player) -> str | None:
        if not player.photo:
            return None
        request = self.context.get("request")
        url = player.photo.url
        return request.build_absolute_uri(url) if request else url


class RosterPlayerSerializer(ModelSerializer):
    """What a club's organisers change of a roster player (the contact details are written,
    never shown)."""

    display_name = CharField(max_length=80)
    email = serializers.EmailField(max_length=254, allow_blank=True)
    phone = CharField(max_length=32, allow_blank=True)

    class Meta:
        model = Player
        fields = ["display_name", "email", "phone"]


class PlayerRefSerializer(ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name"]


class DivisionSerializer(ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "name", "order"]


class NumberChoiceField(serializers.ChoiceField):
    """A choice among numbers, however JSON writes them (1 is the choice 1.0)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, int | float) and not isinstance(data, bool):
            data = float(data)
        return super().to_internal_value(data)


OPTION_FORMATS = {
    name: [f for f, names in OPTION_FIELDS.items() if name in names]
    for name in sorted({name for names in OPTION_FIELDS.values() for name in names})
}


class TournamentOptionsSerializer(ModelSerializer):
    """The options of a tournament format, checked by the model's own rules (as the run
    page's form is, in the same words). An event has only its format's options; a league
    has none."""

    serializer_choice_field = NumberChoiceField

    def build_standard_field(self, field_name: str, model_field: models.Field) -> tuple:
        """The model field's validators themselves, not DRF's bounds that copy them."""
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        bounds = [kwargs.pop(name, None) for name in ("min_value", "max_value")]
        if bounds != [None, None]:
            given = kwargs.get("validators", [])
            kwargs["validators"] = [*given, *(v for v in model_field.validators if v not in given)]
        return field_class, kwargs

    class Meta:
        model = Tournament
        fields = list(OPTION_FORMATS)
        extra_kwargs = {
            name: {"help_text": "Formats: " + ", ".join(f"`{f}`" for f in formats) + "."}
            for name, formats in OPTION_FORMATS.items()
        }


@extend_schema_field(TournamentOptionsSerializer)
class OptionsField(serializers.Field):
    """The event's tournament options: read, those of its format (their current values);
    written, any of them (the others keep theirs)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, **kwargs)

    def to_representation(self, event: Event) -> dict[str, Any]:
        tournament = getattr(event, "tournament", None) or Tournament(event=event)
        shown = TournamentOptionsSerializer(tournament).data
        return {name: shown[name] for name in OPTION_FIELDS[event.format]}

    def to_internal_value(self, data: Any) -> dict[str, dict[str, Any]]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                serializers.Serializer.default_error_messages["invalid"]
                % {"datatype": type(data).__name__}
            )
        unknown = {
            name: [_("Not a tournament option.")] for name in data if name not in OPTION_FORMATS
        }
        if unknown:
            raise serializers.ValidationError(unknown)
        options = TournamentOptionsSerializer(data=data, partial=True)
        options.is_valid(raise_exception=True)
        return {"options": dict(options.validated_data)}


class EventSerializer(ModelSerializer):
    """An event's settings and its format's tournament `options`; `organisation` (a slug)
    is given once, on creation."""

    organisation = serializers.SlugRelatedField(
        slug_field="slug", queryset=Organisation.objects.all()
    )
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(), allow_null=True, required=False
    )
    divisions = DivisionSerializer(many=True, read_only=True)
    rule_overrides = serializers.DictField(required=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.Tiebreak.choices), required=False
    )
    options = OptionsField()

    class Meta:
        model = Event
        fields = [
            "id",
            "slug",
            "organisation",
            "status",
            "created",
            "divisions",
            "results_version",
            "check_in_open",
            "updated",
            *EDITABLE,
            "options",
        ]
        read_only_fields = [
            "id",
            "slug",
            "status",
            "created",
            "divisions",
            "results_version",
            "check_in_open",
            "updated",
        ]

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and not isinstance(self.instance, list):
            fields["organisation"].read_only = True
        return fields


class CheckInSerializer(serializers.Serializer):
    open = BooleanField(help_text="False closes check-in, true reopens it.")


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Event.Status.choices)


class FixturesSerializer(serializers.Serializer):
    first_date = serializers.DateField(required=False, allow_null=True)


class RoundSerializer(ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Round
        fields = ["id", "event", "division", "number", "name", "date", "updated"]


class RoundField(serializers.PrimaryKeyRelatedField):
    """A round by its id; a draft's is found only by those who may see it (as
    `EventSlugField`)."""

    def __init__(self, **kwargs):
        super().__init__(queryset=Round.objects.select_related("event"), **kwargs)

    def to_internal_value(self, data: Any) -> Round:
        round_ = super().to_internal_value(data)
        request = self.context.get("request")
        if request is None or not may_see(request, round_.event):
            self.fail("does_not_exist", pk_value=data)
        return round_


class EntryRefSerializer(PlainSerializer, ModelSerializer):
    class Meta:
        model = Entry
        fields = ["id", "name"]


class EntrySerializer(ModelSerializer):
    """An entry; on creation the players are given by id (`player_1`, `player_2`, …)."""

    event = EventSlugField()
    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Organisation.objects.all(), allow_null=True, required=False
    )
    players = PlayerRefSerializer(many=True, read_only=True)
    player_1 = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), write_only=True, required=False, allow_null=True
    )
    player_2 = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), write_only=True, required=False, allow_null=True
    )
    captain = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True
    )
    team = serializers.PrimaryKeyRelatedField(
        queryset=Entry.objects.all(), required=False, allow_null=True
    )
    division = serializers.PrimaryKeyRelatedField(
        queryset=Division.objects.all(), required=False, allow_null=True
    )
    name = CharField(max_length=120, required=False, allow_blank=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "event",
            "name",
            "status",
            "division",
            "team",
            "club",
            "players",
            "player_1",
            "player_2",
            "captain",
            "late",
            "checked_in",
            "lot",
            "registered",
            "updated",
        ]
        read_only_fields = ["id", "status", "late", "checked_in", "lot", "registered", "updated"]


class ScheduleSerializer(serializers.Serializer):
    scheduled = DateTimeField(allow_null=True)
    venue = CharField(max_length=120, required=False, allow_blank=True)
    table = serializers.IntegerField(min_value=1, max_value=32767, required=False)


class PatchScheduleSerializer(ScheduleSerializer):
    """Any of a match's date, venue and table: what is left out stays as it is."""

    scheduled = DateTimeField(allow_null=True, required=False)


class WithdrawSerializer(serializers.Serializer):
    disqualify = BooleanField(default=False)
    reason = CharField(max_length=300, required=False, allow_blank=True, default="")


# A game's points: far above any target, and 25 games of it still fit the result's columns.
MAX_GAME_POINTS = 10_000


class GameSerializer(serializers.Serializer):
    """One game of a match: its points, and optionally its hands as `domino-hand/1` records."""

    points_a = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)
    points_b = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)
    hands = serializers.ListField(child=HandRecordField(), required=False, max_length=200)


class ResultInputSerializer(serializers.Serializer):
    games = GameSerializer(many=True, allow_empty=False, max_length=25)
    note = CharField(max_length=300, required=False, allow_blank=True, default="")
    lisa = BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="For games given as points only, the round sheet's lisa tick: whether the "
        "winners won by a lisa (shutout). Omitted or null: a lisa when the losers scored "
        "nothing. Games with hand records are ruled on by the engine whatever it says.",
    )


class NoteSerializer(serializers.Serializer):
    note = CharField(max_length=300, required=False, allow_blank=True, default="")


class GameScoreSerializer(serializers.Serializer):
    points_a = serializers.IntegerField()
    points_b = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="How many hand records the game has.")


class ResultSerializer(ModelSerializer):
    event = serializers.SlugRelatedField(source="match.event", slug_field="slug", read_only=True)
    games = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = [
            "id",
            "match",
            "event",
            "status",
            "games_a",
            "games_b",
            "points_a",
            "points_b",
            "shutout",
            "forfeit",
            "games",
            "entered",
            "confirmed",
            "corrects",
            "note",
            "updated",
        ]
        read_only_fields = fields

    @extend_schema_field(GameScoreSerializer(many=True))
    def get_games(self, result: Result) -> list[dict[str, int]]:
        return [
            {"points_a": g["points_a"], "points_b": g["points_b"], "hands": len(g.get("hands", []))}
            for g in result.games
        ]


class HandRecordSerializer(serializers.Serializer):
    """A finished hand: its record and the engine's ruling on it."""

    game = serializers.IntegerField()
    hand = serializers.IntegerField()
    record = HandRecordField()
    ruling = RulingField()


class LiveHandSerializer(serializers.Serializer):
    """A finished hand of a live table: its number in the match, record and ruling."""

    hand = serializers.IntegerField()
    record = HandRecordField()
    ruling = RulingField()


def hand_records(result: Result) -> list[dict[str, Any]]:
    return [
        {"game": g, "hand": h, "record": record, "ruling": ruling}
        for g, game in enumerate(result.games, start=1)
        for h, (record, ruling) in enumerate(
            zip(game.get("hands", []), game.get("rulings", []), strict=False), start=1
        )
    ]


class CurrentResultSerializer(ModelSerializer):
    class Meta:
        model = Result
        fields = [
            "id",
            "status",
            "games_a",
            "games_b",
            "points_a",
            "points_b",
            "shutout",
            "forfeit",
        ]


class MatchSerializer(ModelSerializer):
    """A fixture (or a pairing): its round, its two entries (`entry_b` null is a bye)."""

    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    division = serializers.IntegerField(source="round.division_id", read_only=True, allow_null=True)
    entry_a = EntryRefSerializer(read_only=True)
    entry_b = EntryRefSerializer(read_only=True, allow_null=True)
    result = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "event",
            "round",
            "division",
            "parent",
            "board",
            "entry_a",
            "entry_b",
            "table",
            "venue",
            "scheduled",
            "status",
            "result",
            "updated",
        ]
        read_only_fields = ["id", "parent", "board", "status", "updated"]

    @extend_schema_field(CurrentResultSerializer(allow_null=True))
    def get_result(self, match: Match) -> dict | None:
        current = getattr(match, "current_results", None)
        if not current:
            return None
        return CurrentResultSerializer(current[0]).data


MATCH_COLUMNS = (
    "id",
    "event__slug",
    "event__status",
    "round__number",
    "round__division",
    "parent",
    "board",
    "entry_a",
    "entry_a__name",
    "entry_b",
    "entry_b__name",
    "table",
    "venue",
    "scheduled",
    "status",
    "updated",
)


def match_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """MatchSerializer's representation of many matches, from their `MATCH_COLUMNS` (a
    `values()` page): a list of fixtures makes no model instances, and reads their current
    results in one query (tests/api check that both representations agree)."""
    current: dict[int, dict] = {}
    for result in (
        Result.objects.filter(match__in=[row["id"] for row in rows])
        .exclude(status__in=[Result.Status.SUPERSEDED, Result.Status.REJECTED])
        .order_by("match", "-entered", "-pk")
        .values("match", *CurrentResultSerializer.Meta.fields)
    ):
        current.setdefault(result.pop("match"), result)
    zone = timezone.get_current_timezone()  # as DateTimeField's, once for the page
    return [
        {
            "id": row["id"],
            "event": row["event__slug"],
            "round": row["round__number"],
            "division": row["round__division"],
            "parent": row["parent"],
            "board": row["board"],
            "entry_a": {"id": row["entry_a"], "name": row["entry_a__name"]},
            "entry_b": (
                None
                if row["entry_b"] is None
                else {"id": row["entry_b"], "name": row["entry_b__name"]}
            ),
            "table": row["table"],
            "venue": row["venue"],
            "scheduled": rfc3339(row["scheduled"].astimezone(zone)) if row["scheduled"] else None,
            "status": row["status"],
            "result": current.get(row["id"]),
            "updated": rfc3339(row["updated"].astimezone(zone)),
        }
        for row in rows
    ]


class StandingSerializer(PlainSerializer):
    """A row of a table, as the event's pages rank it. Pair and team events fill the match
    columns; individual events (rotating partners) fill `score` and `sat_out` instead;
    elimination events, once their bracket is drawn, are ranked by it (`places`)."""

    position = serializers.IntegerField()
    entry = EntryRefSerializer()
    lot = serializers.IntegerField(source="entry.lot", allow_null=True)
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    tied = BooleanField(required=False)
    active = BooleanField(required=False)
    drawn = serializers.IntegerField(required=False)
    shutouts = serializers.IntegerField(required=False)
    match_points = serializers.IntegerField(required=False)
    games_won = serializers.IntegerField(required=False)
    games_lost = serializers.IntegerField(required=False)
    form = serializers.ListField(child=CharField(), required=False)
    score = serializers.FloatField(required=False)
    sat_out = serializers.IntegerField(required=False)
    in_play = BooleanField(required=False, help_text="Elimination events: still in the bracket.")
    places = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        required=False,
        help_text="Elimination events, ranked by the bracket: the places the entry shares, "
        "first and last ([1, 1] the winner, [3, 4] two losing semi-finalists); null while "
        "it is still in play, and in the other formats.",
    )


class TableSerializer(serializers.Serializer):
    division = serializers.IntegerField(allow_null=True)
    name = CharField(allow_blank=True, help_text="The division's or group's name.")
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.Tiebreak.choices),
        help_text="The event's tiebreaks, in the order they separate tied entries.",
    )
    rounds = serializers.ListField(child=serializers.IntegerField())
    standings = StandingSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    event = CharField()
    results_version = serializers.IntegerField()
    tables = TableSerializer(many=True)


class UpdatedSinceSerializer(serializers.Serializer):
    updated_since = DateTimeField()


class DivisionFilterSerializer(serializers.Serializer):
    division = QueryIntegerField(min_value=1, max_value=MAX_ID, required=False, default=None)


class LeaderboardFilterSerializer(serializers.Serializer):
    club = serializers.SlugField(required=False, default="")
    country = CharField(max_length=2, required=False, default="")


class BracketSlotSerializer(serializers.Serializer):
    """One match of the bracket: who plays it (when known), who won, and its match."""

    number = serializers.IntegerField()
    stage = CharField()
    round = serializers.IntegerField()
    name = CharField()
    home = EntryRefSerializer(allow_null=True)
    away = EntryRefSerializer(allow_null=True)
    winner = EntryRefSerializer(allow_null=True)
    needed = BooleanField()
    stale = BooleanField()
    match = serializers.IntegerField(source="match.pk", allow_null=True, default=None)


class BracketSerializer(serializers.Serializer):
    """An elimination bracket (or a group stage's playoff), drawn or previewed: its seeds,
    best first, and its matches; a preview's matches are not made yet (`match` null)."""

    kind = serializers.ChoiceField(choices=["single", "double"])
    third_place = BooleanField()
    grand_final_reset = BooleanField()
    first_round = serializers.IntegerField(help_text="The event's round its first matches are.")
    seeds = EntryRefSerializer(many=True)
    slots = BracketSlotSerializer(many=True)


class DryRunSerializer(serializers.Serializer):
    dry_run = BooleanField(
        default=False, help_text="Only say what would be done (200), and change nothing."
    )


class SeedsSerializer(DryRunSerializer):
    """Seeds by hand, best first (every entry that plays, once); without them the event's
    seeding option decides. Seeded by lot, a dry run is one draw of lots: send its `seeds`
    back to draw exactly what it showed."""

    seeds = _ids(required=False, allow_empty=False)


class GroupSerializer(serializers.Serializer):
    name = CharField()
    entries = EntryRefSerializer(many=True, help_text="Best seed first.")


class GroupDrawSerializer(serializers.Serializer):
    """The groups, drawn or previewed, and the seeds they come from (best first); every
    round of their round robins is made with them."""

    groups = GroupSerializer(many=True)
    seeds = EntryRefSerializer(many=True)
    rounds = serializers.IntegerField(help_text="How many rounds the group stage has.")


class TableResultSerializer(ModelSerializer):
    """The points of both sides at a table of an individual event's round: side A is seats 1
    and 3, side B seats 2 and 4. An organiser's or referee's entry counts at once; a
    player's waits for a second person (`confirm`)."""

    event = serializers.SlugRelatedField(source="round.event", slug_field="slug", read_only=True)
    round = RoundField()
    number = serializers.IntegerField(source="round.number", read_only=True)
    table = serializers.IntegerField(min_value=1, max_value=32767)
    points_a = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)
    points_b = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)

    class Meta:
        model = TableResult
        fields = [
            "id",
            "event",
            "round",
            "number",
            "table",
            "points_a",
            "points_b",
            "status",
            "updated",
        ]
        read_only_fields = ["id", "status", "updated"]
        validators = []  # a second result for a table is the service's to refuse (422)


class TableResultRefSerializer(ModelSerializer):
    class Meta:
        model = TableResult
        fields = ["id", "points_a", "points_b", "status"]


class SeatedTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    side_a = EntryRefSerializer(many=True, help_text="Seats 1 and 3, partners.")
    side_b = EntryRefSerializer(many=True, help_text="Seats 2 and 4, partners.")
    result = TableResultRefSerializer(allow_null=True)


class SeatingSerializer(serializers.Serializer):
    """An individual event's round: its tables, partners opposite each other, and who sits
    it out; seated, or previewed (`round` null, no results)."""

    round = serializers.IntegerField(allow_null=True, help_text="The round's id once seated.")
    number = serializers.IntegerField()
    tables = SeatedTableSerializer(many=True)
    sitting_out = EntryRefSerializer(many=True)


class EntryImportSerializer(serializers.Serializer):
    """A CSV of entrants, as on the event's import page: for pairs the columns player 1,
    player 2 and optionally club, seed and rating; one player per row for individual events;
    the first line names the columns. Every row is entered, or none."""

    csv = CharField(max_length=MAX_CSV_BYTES, trim_whitespace=False)
    add_players = BooleanField(
        default=True, help_text="Names not on the club's roster become new roster players."
    )
    dry_run = BooleanField(
        default=False, help_text="Only say what would be entered, and what is wrong."
    )


class ImportProblemSerializer(serializers.Serializer):
    line = serializers.IntegerField(allow_null=True, help_text="The file's line, or null.")
    code = CharField()
    message = CharField()


class ImportedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null: a new roster player.")
    name = CharField()


class ImportRowSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    players = ImportedPlayerSerializer(many=True)
    club = CharField(allow_null=True, help_text="The club's slug.")
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)


class EntryImportPreviewSerializer(serializers.Serializer):
    ok = BooleanField(help_text="True when the file can be imported as it is.")
    rows = ImportRowSerializer(many=True)
    problems = ImportProblemSerializer(many=True)


def import_preview(preview: ImportPreview) -> dict[str, Any]:
    rows = [
        {
            "line": row.line,
            "players": [
                {"id": player.pk if player else None, "name": name}
                for name, player in zip(row.names, row.players, strict=True)
            ],
            "club": row.club.slug if row.club else None,
            "seed": row.seed,
            "rating": row.rating,
        }
        for row in preview.rows
    ]
    body = {"ok": preview.ok, "rows": rows, "problems": preview.problems()}
    return EntryImportPreviewSerializer(body).data


def _topics(**options: Any) -> serializers.ListField:
    """A webhook's topics: at least one, each once."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=Webhook.Topic.choices),
        allow_empty=False,
        max_length=len(Webhook.Topic.values),
        **options,
    )


class WebhookSerializer(ModelSerializer):
    """A webhook of an organisation the caller owns. Its signing secret is shown once, in
    the answer that creates it."""

    organisation = serializers.SlugRelatedField(
        slug_field="slug", queryset=Organisation.objects.all()
    )
    topics = _topics()
    secret = serializers.SerializerMethodField()

    class Meta:
        model = Webhook
        fields = ["id", "organisation", "url", "topics", "active", "created", "updated", "secret"]
        read_only_fields = ["id", "active", "created", "updated", "secret"]

    def get_secret(self, webhook: Webhook) -> str | None:
        return webhook.secret if self.context.get("created") else None


class WebhookChangeSerializer(serializers.Serializer):
    """What changes of a webhook (either or both): never its address or its secret."""

    topics = _topics(required=False)
    active = BooleanField(required=False)


class DeliverySerializer(ModelSerializer):
    class Meta:
        model = Delivery
        fields = [
            "id",
            "event_id",
            "topic",
            "status",
            "attempts",
            "response_status",
            "error",
            "created",
            "last_attempt",
            "updated",
        ]
        read_only_fields = fields


class RedeliverSerializer(serializers.Serializer):
    delivery = serializers.UUIDField(help_text="A failed delivery of this webhook.")


class LiveScoreSerializer(serializers.Serializer):
    """The public score of a match played at a live table: never a tile."""

    match = serializers.IntegerField()
    table = CharField(help_text="The live table's code.")
    status = serializers.ChoiceField(choices=Table.Status.choices)
    hand_number = serializers.IntegerField(help_text="The hand in play (or the last one).")
    scores = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, help_text="Side A, side B."
    )
    target = serializers.IntegerField(help_text="The points that win the match.")
    over = BooleanField()
    winner = serializers.IntegerField(allow_null=True, help_text="0: side A, 1: side B.")
    round = serializers.IntegerField(help_text="The number of the match's round.")
    ends = serializers.DateTimeField(
        allow_null=True,
        help_text="The match's time limit: in an online event that runs itself, its round's "
        "deadline (the round clock); null without one.",
    )


class DraftPairingSerializer(ModelSerializer):
    """A table of the Swiss round being drafted (organisers only): `entry_b` null is the
    bye; a pinned table is kept when the round is paired again. `rematch` warns of a repeat
    meeting or a forbidden pairing."""

    entry_a = EntryRefSerializer(read_only=True)
    entry_b = EntryRefSerializer(read_only=True, allow_null=True)
    rematch = serializers.SerializerMethodField()

    class Meta:
        model = DraftPairing
        fields = ["id", "number", "table", "entry_a", "entry_b", "pinned", "rematch"]
        read_only_fields = fields

    def get_rematch(self, pairing: DraftPairing) -> bool:
        return pairing.pk in self.context.get("rematches", ())


class SwapSerializer(serializers.Serializer):
    """Two entries of the draft round exchange places; both their tables become pinned."""

    first = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class PinSerializer(serializers.Serializer):
    pairing = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A draft table's id."
    )
    pinned = BooleanField(default=True)


class UnpairedSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The number of the round withdrawn.")


class CorrectionSerializer(ResultInputSerializer):
    """A correction of a confirmed result (`note` says why). In a bracket, a correction that
    changes the winner resets the later matches that depended on it: `reset` must list
    exactly their ids, as the preview gave them (omitted or empty when nothing resets)."""

    reset = _ids(required=False, default=list)


class RatingPoolSerializer(ModelSerializer):
    organisation = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = RatingPool
        fields = ["slug", "name", "kind", "organisation", "recalculated", "updated"]


class LeaderboardRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = PlayerSerializer()
    rating = serializers.FloatField(source="ordinal")
    matches = serializers.IntegerField()
    provisional = BooleanField()
    updated = DateTimeField(help_text="When the rating last changed.")


class RatingHistorySerializer(serializers.Serializer):
    """A player's rating in one pool and its course, match by match (the first value is the
    rating before their first match)."""

    pool = CharField(source="pool.slug")
    rating = serializers.FloatField(source="rating.ordinal")
    matches = serializers.IntegerField(source="rating.matches")
    provisional = BooleanField(source="rating.provisional")
    values = serializers.ListField(child=serializers.FloatField())
    dates = serializers.ListField(child=DateTimeField())


class StatisticsFiguresSerializer(serializers.Serializer):
    """Counts over a player's finished hands (games/stats/selectors.py), and their rates.

    A hand is won or lost by its side: by domino, by tranque, or by a referee's award. Matches
    count when played to the end. A rate is null when there is nothing to divide by.
    """

    hands = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    hands_lost = serializers.IntegerField()
    matches = serializers.IntegerField(help_text="Matches played to the end.")
    matches_won = serializers.IntegerField()
    matches_lost = serializers.IntegerField()
    dominoes_won = serializers.IntegerField()
    dominoes_lost = serializers.IntegerField()
    capicuas_won = serializers.IntegerField()
    capicuas_lost = serializers.IntegerField()
    tranques_won = serializers.IntegerField()
    tranques_lost = serializers.IntegerField()
    tranques_tied = serializers.IntegerField()
    awarded_won = serializers.IntegerField(help_text="Hands a referee awarded to the side.")
    awarded_lost = serializers.IntegerField()
    passes_forced = serializers.IntegerField(
        help_text="Opponents' passes right after the player's play."
    )
    passes_suffered = serializers.IntegerField()
    points_won = serializers.IntegerField(help_text="Points of the side in the hands it won.")
    opened = serializers.IntegerField(help_text="Hands the player opened (made the salida).")
    hand_win_rate = serializers.FloatField(allow_null=True)
    match_win_rate = serializers.FloatField(allow_null=True)
    points_per_hand_won = serializers.FloatField(allow_null=True)
    opening_rate = serializers.FloatField(allow_null=True)


class StatisticsPartnerSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        source="player_id", allow_null=True, help_text="Null: bots and guests."
    )
    name = CharField()
    figures = StatisticsFiguresSerializer()


class StatisticsOpeningSerializer(serializers.Serializer):
    tile = CharField(help_text='The opening tile, high half first ("6-4").')
    figures = StatisticsFiguresSerializer()


class RuleSetStatisticsSerializer(serializers.Serializer):
    rule_set = CharField(
        help_text="A preset or named variant (docs/rules.md); empty for all rule sets."
    )
    figures = StatisticsFiguresSerializer()
    partners = StatisticsPartnerSerializer(many=True)
    openings = StatisticsOpeningSerializer(many=True)


class PlayerStatisticsSerializer(serializers.Serializer):
    """A player's statistics over all rule sets and per rule set, with each partner and each
    opening tile: public facts of finished hands only."""

    player = serializers.IntegerField()
    overall = RuleSetStatisticsSerializer()
    rule_sets = RuleSetStatisticsSerializer(many=True)


class AuditFilterSerializer(serializers.Serializer):
    event = serializers.SlugField(required=False, help_text="Only this event's (its slug).")
    action = CharField(
        required=False, max_length=40, help_text="Only this action (such as `entry.withdraw`)."
    )
    since = DateTimeField(required=False, help_text="Only from this time on (RFC 3339).")
    until = DateTimeField(required=False, help_text="Only before this time (RFC 3339).")


# Never shown in the audit log: a roster player's contact details.
PRIVATE_FIELDS = ("email", "phone")


class AuditStateField(serializers.JSONField):
    """What an object was before or after the change (its contact details left out)."""

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k not in PRIVATE_FIELDS}
        return super().to_representation(value)


class AuditEntrySerializer(ModelSerializer):
    """One change in an organisation's audit log: who did what, to what, when."""

    event = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    description = serializers.SerializerMethodField()
    actor = serializers.SerializerMethodField()
    before = AuditStateField(allow_null=True)
    after = AuditStateField(allow_null=True)

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "action",
            "description",
            "event",
            "target",
            "actor",
            "before",
            "after",
        ]
        read_only_fields = fields

    def get_description(self, entry: AuditEntry) -> str:
        """The action in the reader's language."""
        return str(ACTIONS.get(entry.action, entry.action))

    @extend_schema_field(CharField(allow_null=True))
    def get_actor(self, entry: AuditEntry) -> str | None:
        """Who did it (their player name, else their user name); null: the system."""
        if entry.actor is None:
            return None
        player = getattr(entry.actor, "player", None)
        return player.display_name if player is not None else entry.actor.get_username()


class ClockSerializer(serializers.Serializer):
    """Where an online event that runs itself is, and the moment its clock counts down to."""

    state = serializers.ChoiceField(
        choices=[
            ("none", "none"),
            ("scheduled", "scheduled"),
            ("check_in", "check_in"),
            ("starting", "starting"),
            ("round", "round"),
            ("pause", "pause"),
            ("paused", "paused"),
            ("finished", "finished"),
            ("cancelled", "cancelled"),
        ],
        help_text="scheduled: before the check-in window; check_in: the window is open; "
        "starting: started, the first round being paired; round: a round in play (`until` "
        "is its deadline); pause: between rounds (`until`: the next round's pairing); "
        "paused: stopped by an organiser (or a format's rule); finished, cancelled; none: "
        "the event does not run itself.",
    )
    round = serializers.IntegerField(help_text="The round in play (or just ended); 0 before.")
    until = serializers.DateTimeField(
        allow_null=True, help_text="The start, the round's deadline or the next round."
    )
    check_in_opens = serializers.DateTimeField(allow_null=True)
    starts = serializers.DateTimeField(allow_null=True)


# A whole number a setting's own rule then checks (its code, not DRF's): only bounded so
# that nothing out of the database's range reaches a service.
WHOLE = {"min_value": -(2**31), "max_value": 2**31 - 1}


class AutopilotSerializer(serializers.Serializer):
    """How an online event runs itself (docs/online-events.md), and where it is. Written by
    its organisers before the start: only the fields sent change, each checked by the same
    rules as the pages (a refused setting is a 422 with its code, and nothing changes)."""

    starts = serializers.DateTimeField(help_text="The start, in the future, with its zone.")
    check_in_minutes = serializers.IntegerField(
        **WHOLE, help_text="Check-in opens this many minutes before the start (1 to 1,440)."
    )
    pause_seconds = serializers.IntegerField(**WHOLE, help_text="Between rounds (0 to 3,600).")
    round_minutes = serializers.IntegerField(
        **WHOLE,
        help_text="A round's time for matches to a target: at least one hand at the turn time.",
    )
    two_forfeits = serializers.ChoiceField(
        choices=Autopilot.Forfeits.choices,
        help_text="What becomes of a pair that forfeits two rounds in a row.",
    )
    arena_minutes = serializers.IntegerField(
        **WHOLE, allow_null=True, help_text="An arena's time window (5 to 1,440 minutes)."
    )
    match_format = serializers.ChoiceField(
        choices=Event.MatchFormat.choices, help_text="The event's; best of N is refused."
    )
    time_limit = serializers.IntegerField(
        **WHOLE, allow_null=True, help_text="Minutes, for a time-limited match format."
    )
    turn_seconds = serializers.IntegerField(**WHOLE, help_text="The turn timer, 5 to 300 seconds.")
    paused = serializers.DateTimeField(read_only=True, allow_null=True)
    started = serializers.DateTimeField(read_only=True, allow_null=True)
    finished = serializers.DateTimeField(read_only=True, allow_null=True)
    clock = ClockSerializer(read_only=True)


class ExtendSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        **WHOLE, help_text="1 to 120 more minutes for the round in play."
    )


class AutopilotWithdrawSerializer(serializers.Serializer):
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The entry withdrawn; its table closes."
    )
