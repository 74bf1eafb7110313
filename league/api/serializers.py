"""What the API shows of the competition: public fields only, never a live hand's tiles."""

import datetime
from typing import Any

from django.db import models
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from config.schema import HAND, RULING
from games.models import Table
from league.models import (
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
from league.services.entries import MAX_CSV_BYTES, ImportPreview
from league.services.events import EDITABLE
from league.tournaments.models import DraftPairing

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


class ModelSerializer(serializers.ModelSerializer):
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DateTimeField: DateTimeField,
    }


@extend_schema_field(HAND)
class HandRecordField(serializers.DictField):
    """A `domino-hand/1` record (games/schemas/domino-hand-1.json)."""


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

    display_name = serializers.CharField(max_length=80)
    email = serializers.EmailField(max_length=254, allow_blank=True)
    phone = serializers.CharField(max_length=32, allow_blank=True)

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


class EventSerializer(ModelSerializer):
    """An event's settings; `organisation` (a slug) is given once, on creation."""

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
            "updated",
            *EDITABLE,
        ]
        read_only_fields = [
            "id",
            "slug",
            "status",
            "created",
            "divisions",
            "results_version",
            "updated",
        ]

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and not isinstance(self.instance, list):
            fields["organisation"].read_only = True
        return fields


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Event.Status.choices)


class FixturesSerializer(serializers.Serializer):
    first_date = serializers.DateField(required=False, allow_null=True)


class RoundSerializer(ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Round
        fields = ["id", "event", "division", "number", "name", "date", "updated"]


class EntryRefSerializer(ModelSerializer):
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
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)

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
    venue = serializers.CharField(max_length=120, required=False, allow_blank=True)
    table = serializers.IntegerField(min_value=1, max_value=32767, required=False)


class PatchScheduleSerializer(ScheduleSerializer):
    """Any of a match's date, venue and table: what is left out stays as it is."""

    scheduled = DateTimeField(allow_null=True, required=False)


class WithdrawSerializer(serializers.Serializer):
    disqualify = serializers.BooleanField(default=False)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


# A game's points: far above any target, and 25 games of it still fit the result's columns.
MAX_GAME_POINTS = 10_000


class GameSerializer(serializers.Serializer):
    """One game of a match: its points, and optionally its hands as `domino-hand/1` records."""

    points_a = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)
    points_b = serializers.IntegerField(min_value=0, max_value=MAX_GAME_POINTS)
    hands = serializers.ListField(child=HandRecordField(), required=False, max_length=200)


class ResultInputSerializer(serializers.Serializer):
    games = GameSerializer(many=True, allow_empty=False, max_length=25)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    lisa = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="For games given as points only, the round sheet's lisa tick: whether the "
        "winners won by a lisa (shutout). Omitted or null: a lisa when the losers scored "
        "nothing. Games with hand records are ruled on by the engine whatever it says.",
    )


class NoteSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


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


class StandingSerializer(serializers.Serializer):
    """A row of a table. Pair and team events fill the match columns; individual events
    (rotating partners) fill `score` and `sat_out` instead."""

    position = serializers.IntegerField()
    entry = EntryRefSerializer()
    lot = serializers.IntegerField(source="entry.lot", allow_null=True)
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    tied = serializers.BooleanField(required=False)
    active = serializers.BooleanField(required=False)
    drawn = serializers.IntegerField(required=False)
    shutouts = serializers.IntegerField(required=False)
    match_points = serializers.IntegerField(required=False)
    games_won = serializers.IntegerField(required=False)
    games_lost = serializers.IntegerField(required=False)
    form = serializers.ListField(child=serializers.CharField(), required=False)
    score = serializers.FloatField(required=False)
    sat_out = serializers.IntegerField(required=False)


class TableSerializer(serializers.Serializer):
    division = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True, help_text="The division's or group's name.")
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.Tiebreak.choices),
        help_text="The event's tiebreaks, in the order they separate tied entries.",
    )
    rounds = serializers.ListField(child=serializers.IntegerField())
    standings = StandingSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    event = serializers.CharField()
    results_version = serializers.IntegerField()
    tables = TableSerializer(many=True)


class UpdatedSinceSerializer(serializers.Serializer):
    updated_since = DateTimeField()


class DivisionFilterSerializer(serializers.Serializer):
    division = QueryIntegerField(min_value=1, max_value=MAX_ID, required=False, default=None)


class LeaderboardFilterSerializer(serializers.Serializer):
    club = serializers.SlugField(required=False, default="")
    country = serializers.CharField(max_length=2, required=False, default="")


class BracketSlotSerializer(serializers.Serializer):
    """One match of the bracket: who plays it (when known), who won, and its match."""

    number = serializers.IntegerField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    name = serializers.CharField()
    home = EntryRefSerializer(allow_null=True)
    away = EntryRefSerializer(allow_null=True)
    winner = EntryRefSerializer(allow_null=True)
    needed = serializers.BooleanField()
    stale = serializers.BooleanField()
    match = serializers.IntegerField(source="match.pk", allow_null=True, default=None)


class BracketSerializer(serializers.Serializer):
    kind = serializers.CharField()
    third_place = serializers.BooleanField()
    grand_final_reset = serializers.BooleanField()
    first_round = serializers.IntegerField()
    slots = BracketSlotSerializer(many=True)


class EntryImportSerializer(serializers.Serializer):
    """A CSV of entrants, as on the event's import page: for pairs the columns player 1,
    player 2 and optionally club, seed and rating; one player per row for individual events;
    the first line names the columns. Every row is entered, or none."""

    csv = serializers.CharField(max_length=MAX_CSV_BYTES, trim_whitespace=False)
    add_players = serializers.BooleanField(
        default=True, help_text="Names not on the club's roster become new roster players."
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="Only say what would be entered, and what is wrong."
    )


class ImportProblemSerializer(serializers.Serializer):
    line = serializers.IntegerField(allow_null=True, help_text="The file's line, or null.")
    code = serializers.CharField()
    message = serializers.CharField()


class ImportedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="Null: a new roster player.")
    name = serializers.CharField()


class ImportRowSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    players = ImportedPlayerSerializer(many=True)
    club = serializers.CharField(allow_null=True, help_text="The club's slug.")
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)


class EntryImportPreviewSerializer(serializers.Serializer):
    ok = serializers.BooleanField(help_text="True when the file can be imported as it is.")
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


class WebhookSerializer(ModelSerializer):
    """A webhook of an organisation the caller owns. Its signing secret is shown once, in
    the answer that creates it."""

    organisation = serializers.SlugRelatedField(
        slug_field="slug", queryset=Organisation.objects.all()
    )
    topics = serializers.ListField(
        child=serializers.ChoiceField(choices=Webhook.Topic.choices),
        allow_empty=False,
        max_length=len(Webhook.Topic.values),
    )
    secret = serializers.SerializerMethodField()

    class Meta:
        model = Webhook
        fields = ["id", "organisation", "url", "topics", "active", "created", "secret"]
        read_only_fields = ["id", "active", "created", "secret"]

    def get_secret(self, webhook: Webhook) -> str | None:
        return webhook.secret if self.context.get("created") else None


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
        ]
        read_only_fields = fields


class RedeliverSerializer(serializers.Serializer):
    delivery = serializers.UUIDField(help_text="A failed delivery of this webhook.")


class LiveScoreSerializer(serializers.Serializer):
    """The public score of a match played at a live table: never a tile."""

    match = serializers.IntegerField()
    table = serializers.CharField(help_text="The live table's code.")
    status = serializers.ChoiceField(choices=Table.Status.choices)
    hand_number = serializers.IntegerField(help_text="The hand in play (or the last one).")
    scores = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, help_text="Side A, side B."
    )
    target = serializers.IntegerField(help_text="The points that win the match.")
    over = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True, help_text="0: side A, 1: side B.")


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
    pinned = serializers.BooleanField(default=True)


class UnpairedSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The number of the round withdrawn.")


class DrawBracketSerializer(serializers.Serializer):
    """Seeds by hand, best first (every entry that plays, once); without them the event's
    seeding option decides."""

    seeds = _ids(required=False, allow_empty=False)


class CorrectionSerializer(ResultInputSerializer):
    """A correction of a confirmed result (`note` says why). In a bracket, a correction that
    changes the winner resets the later matches that depended on it: `reset` must list
    exactly their ids, as the preview gave them (omitted or empty when nothing resets)."""

    reset = _ids(required=False, default=list)


class RatingPoolSerializer(ModelSerializer):
    organisation = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = RatingPool
        fields = ["slug", "name", "kind", "organisation", "recalculated"]


class LeaderboardRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = PlayerSerializer()
    rating = serializers.FloatField(source="ordinal")
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RatingHistorySerializer(serializers.Serializer):
    """A player's rating in one pool and its course, match by match (the first value is the
    rating before their first match)."""

    pool = serializers.CharField(source="pool.slug")
    rating = serializers.FloatField(source="rating.ordinal")
    matches = serializers.IntegerField(source="rating.matches")
    provisional = serializers.BooleanField(source="rating.provisional")
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
    name = serializers.CharField()
    figures = StatisticsFiguresSerializer()


class StatisticsOpeningSerializer(serializers.Serializer):
    tile = serializers.CharField(help_text='The opening tile, high half first ("6-4").')
    figures = StatisticsFiguresSerializer()


class RuleSetStatisticsSerializer(serializers.Serializer):
    rule_set = serializers.CharField(
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
