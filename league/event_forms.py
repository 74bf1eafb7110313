"""Forms of the competition pages. They only shape input; the services decide."""

from typing import Any

from django import forms
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from . import rule_options
from .models import (
    RULE_PRESET_CHOICES,
    Autopilot,
    Division,
    Entry,
    Event,
    Membership,
    Organisation,
    Season,
)
from .services import arena
from .services.entries import Pick
from .services.events import EDITABLE, format_tiebreaks, rules_of

LOCAL_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
F = Event.Format
# The settings only some formats use; every format uses the others.
FORMAT_FIELDS = {
    F.LEAGUE: ("entry_kind", "boards", "legs", "absence", "forfeit_games", "forfeit_points"),
    F.SWISS: ("absence", "forfeit_games", "forfeit_points"),
    F.SINGLE_ELIMINATION: ("absence", "forfeit_games", "forfeit_points"),
    F.DOUBLE_ELIMINATION: ("absence", "forfeit_games", "forfeit_points"),
    F.GROUPS_PLAYOFF: ("absence", "forfeit_games", "forfeit_points"),
    F.INDIVIDUAL: (),
    F.ARENA: (),
}
FORMAT_ONLY = {name for names in FORMAT_FIELDS.values() for name in names}
FORMAT_HELP = {
    F.LEAGUE: _("Everyone plays everyone, over one or two legs; pairs or club teams."),
    F.SWISS: _("A set number of rounds; each round pairs entries with the same score."),
    F.SINGLE_ELIMINATION: _("A knockout bracket: one loss and the pair is out."),
    F.DOUBLE_ELIMINATION: _("A knockout bracket where a pair is out after two losses."),
    F.GROUPS_PLAYOFF: _("Round-robin groups, then a knockout playoff of the best."),
    F.INDIVIDUAL: _("Each player enters alone; partners rotate every round."),
    F.ARENA: _(
        "Online, for a time window: pairs and single players join at any time and are "
        "seated as soon as two pairs are free; two wins in a row and each win counts double."
    ),
}
# Rule options an organiser changes most, as fields; blank keeps the preset's value.
# The least value of each (their labels and help are league.rule_options's).
RULE_FIELDS = {
    "target": 1,
    "shutout_multiplier": 1,
    "capicua_bonus": 0,
    "paso_corrido_bonus": 0,
    "pass_points": 0,
    "turn_seconds": 1,
}


class TiebreakListWidget(forms.Widget):
    """The tiebreaks in order, each with buttons to move it up or down or remove it, and a
    list to add one more. The buttons work without JavaScript (they send the form back to be
    shown again); with it, they act at once."""

    template_name = "league/widgets/tiebreaks.html"

    def value_from_datadict(self, data, files, name: str) -> list[str]:
        return data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])

    def get_context(self, name: str, value: Any, attrs: dict | None) -> dict:
        context = super().get_context(name, value, attrs)
        labels = dict(Event.Tiebreak.choices)
        chosen = [v for v in (value or []) if v in labels]
        context["widget"]["chosen"] = [(key, labels[key]) for key in chosen]
        context["widget"]["others"] = [(k, v) for k, v in labels.items() if k not in chosen]
        return context


def move_tiebreak(order: list[str], action: str, added: str) -> list[str]:
    """The tiebreak list after one button: "up:i", "down:i", "remove:i" or "add"."""
    order = list(order)
    verb, _sep, index = action.partition(":")
    i = int(index) if index.isdigit() else -1
    if verb == "add" and added in Event.Tiebreak.values and added not in order:
        order.append(added)
    elif 0 <= i < len(order):
        if verb == "remove":
            order.pop(i)
        elif verb == "up" and i > 0:
            order[i - 1], order[i] = order[i], order[i - 1]
        elif verb == "down" and i < len(order) - 1:
            order[i + 1], order[i] = order[i], order[i + 1]
    return order


class EventForm(forms.ModelForm):
    """The settings of an event, once its format is chosen: only the fields that format
    uses, the rule options as fields of their own, and the tiebreaks as an ordered list."""

    rule_preset = forms.ChoiceField(label=_("Rule set"), choices=RULE_PRESET_CHOICES)
    tiebreaks = forms.MultipleChoiceField(
        label=_("Tiebreaks, in order"),
        choices=Event.Tiebreak.choices,
        widget=TiebreakListWidget,
        help_text=_("Entries level on the first are compared on the second, and so on."),
    )

    class Meta:
        model = Event
        fields = [f for f in EDITABLE if f not in ("rule_overrides", "tiebreaks")]
        widgets = {
            "format": forms.HiddenInput,
            "description": forms.Textarea(attrs={"rows": 3}),
            "registration_opens": LOCAL_DATETIME,
            "registration_closes": LOCAL_DATETIME,
        }

    def __init__(self, *args: Any, organisation: Organisation, event_format: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.event_format = event_format
        self.fields["season"].queryset = Season.objects.filter(organisation=organisation)
        self.initial["format"] = event_format
        for name in FORMAT_ONLY - set(FORMAT_FIELDS[event_format]):
            del self.fields[name]
        if self.instance.pk and self.instance.format == event_format:
            self.initial["tiebreaks"] = self.instance.tiebreaks
        else:
            self.initial["tiebreaks"] = format_tiebreaks(event_format)
        overrides = self.instance.rule_overrides if self.instance.pk else {}
        for option, least in RULE_FIELDS.items():
            self.fields[f"rule_{option}"] = forms.IntegerField(
                label=rule_options.LABELS[option],
                help_text=rule_options.HELP[option],
                required=False,
                min_value=least,
                max_value=10_000,
            )
            self.initial[f"rule_{option}"] = overrides.get(option)
        for name in ("best_of", "time_limit"):
            self.fields[name].widget.attrs["data-match-format"] = name
        if event_format == F.ARENA:
            self._arena_fields()

    def _arena_fields(self) -> None:
        """An arena is played online and runs itself: its start and its window."""
        del self.fields["mode"]
        pilot = Autopilot.objects.filter(event_id=self.instance.pk).first()
        self.fields["arena_starts"] = forms.DateTimeField(
            label=_("The arena starts at"), widget=LOCAL_DATETIME
        )
        low, high = arena.MINUTES
        self.fields["arena_minutes"] = forms.IntegerField(
            label=_("The arena lasts (minutes)"), min_value=low, max_value=high
        )
        self.initial["arena_minutes"] = arena.DEFAULT_MINUTES
        if pilot is not None:
            self.initial["arena_starts"] = timezone.localtime(pilot.starts)
            self.initial["arena_minutes"] = pilot.arena_minutes

    def arena_settings(self) -> dict[str, Any]:
        """The arena's autopilot settings (league.services.autopilot.configure)."""
        data = self.cleaned_data
        return {"starts": data["arena_starts"], "arena_minutes": data["arena_minutes"]}

    def clean_format(self) -> str:
        return self.event_format

    rule_names = [f"rule_{option}" for option in RULE_FIELDS]

    def rule_fields(self) -> list:
        return [self[name] for name in self.rule_names]

    def settings(self) -> dict[str, Any]:
        """The cleaned values as keyword arguments of the event services."""
        data = self.cleaned_data
        values = {name: data[name] for name in self.Meta.fields if name in self.fields}
        values["tiebreaks"] = list(data["tiebreaks"])
        kept = {
            k: v for k, v in (self.instance.rule_overrides or {}).items() if k not in RULE_FIELDS
        }
        chosen = {o: data[f"rule_{o}"] for o in RULE_FIELDS if data.get(f"rule_{o}") is not None}
        values["rule_overrides"] = {**kept, **chosen}
        if values["match_format"] != Event.MatchFormat.BEST_OF:
            values["best_of"] = None
        if values["match_format"] != Event.MatchFormat.TIME_LIMIT:
            values["time_limit"] = None
        if self.event_format == F.ARENA:
            values["mode"] = Event.Mode.ONLINE
        if self.event_format != F.LEAGUE:
            values.update(entry_kind=Event.EntryKind.PAIR, boards=1)
        elif values["entry_kind"] == Event.EntryKind.PAIR:
            values["boards"] = 1
        return values


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts", "ends"]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}),
            "ends": forms.DateInput(attrs={"type": "date"}),
        }


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Division"), max_length=80)


class InviteForm(forms.Form):
    # The least powerful role first, and chosen unless the inviter picks another.
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Membership.Role.choices[::-1],
        initial=Membership.Role.PLAYER,
    )
    email = forms.EmailField(label=_("Email (optional)"), required=False)


class RosterPickWidget(forms.MultiWidget):
    """A name typed in, searched in the club's roster as one types; picking a player from
    the list fills the hidden id (`<name>_id`). Without a pick the name stands on its own."""

    template_name = "league/widgets/roster_pick.html"

    def __init__(self, attrs: dict | None = None):
        text = forms.TextInput(
            attrs={
                "autocomplete": "off",
                "maxlength": 80,
                "role": "combobox",
                "placeholder": _("Search the roster, or type a new name"),
            }
        )
        super().__init__({"": text, "id": forms.HiddenInput()}, attrs)

    def decompress(self, value: Pick | None) -> list:
        return [value.name, value.pk] if value else ["", None]


class RosterPickField(forms.MultiValueField):
    """A player of the event's roster, or a new player's name: cleans to a `Pick`."""

    widget = RosterPickWidget

    def __init__(self, **kwargs: Any):
        fields = (
            forms.CharField(max_length=80, required=False),
            forms.IntegerField(min_value=1, required=False),
        )
        super().__init__(fields, require_all_fields=False, **kwargs)

    def compress(self, data_list: list) -> Pick | None:
        name, pk = (list(data_list) + ["", None])[:2]
        if not name and pk is None:
            return None
        return Pick(pk=pk, name=name or "")


class RosterForm(forms.Form):
    """A form whose player fields search the event's roster (never every user of the site)."""

    def __init__(self, *args: Any, event: Event, **kwargs: Any):
        super().__init__(*args, **kwargs)
        search = reverse("roster_search", args=[event.slug])
        for field in self.fields.values():
            if isinstance(field, RosterPickField):
                field.widget.attrs.update({"data-search": search})


class EntryForm(RosterForm):
    player_1 = RosterPickField(label=_("Player"), required=False)
    player_2 = RosterPickField(label=_("Partner"), required=False)
    captain = RosterPickField(label=_("Captain"), required=False)
    name = forms.CharField(label=_("Name of the pair (optional)"), max_length=120, required=False)
    club = forms.ModelChoiceField(Organisation.objects.all(), label=_("Club"), required=False)
    division = forms.ModelChoiceField(Division.objects.none(), label=_("Division"), required=False)
    team = forms.ModelChoiceField(Entry.objects.none(), label=_("Team"), required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any):
        super().__init__(*args, event=event, **kwargs)
        self.fields["division"].queryset = event.divisions.all()
        if not event.divisions.exists():
            del self.fields["division"]
        if event.entry_kind == Event.EntryKind.TEAM:
            self.fields["team"].queryset = event.entries.filter(team__isnull=True)
            self.fields["name"].label = _("Name")
        else:
            del self.fields["team"]
            del self.fields["club"]
            del self.fields["captain"]
        if event.format == Event.Format.INDIVIDUAL:
            del self.fields["player_2"]


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "First line: the column names. Pairs: player 1, player 2, and optionally club, "
            "seed, rating. Individual events: player. UTF-8 or Latin-1; commas or semicolons."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )
    add_players = forms.BooleanField(
        label=_("Add players who are not on the club's roster yet (without an account)"),
        required=False,
        initial=True,
    )


class RosterPlayerForm(forms.Form):
    display_name = forms.CharField(label=_("Name"), max_length=80)
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    phone = forms.CharField(label=_("Phone (optional)"), max_length=32, required=False)


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=80, required=False)
    country = forms.CharField(
        label=_("Country code"),
        max_length=2,
        required=False,
        help_text=_("Two letters, e.g. DO, PR, BR, ES."),
    )


class HandRecordsField(forms.JSONField):
    """A game's hand records as JSON; empty when there are none (never `null`)."""

    def prepare_value(self, value: Any) -> Any:
        return "" if value in (None, "", []) else super().prepare_value(value)


POINTS_LABEL = {"a": _("Game %(n)s: points of A"), "b": _("Game %(n)s: points of B")}


class ResultForm(forms.Form):
    """Points of each game; a game's hand records may be pasted as a JSON list.

    `result`: a result to start from (a correction starts from the current score).
    """

    def __init__(self, *args: Any, games: int, result: Any = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game_count = games
        for n in range(1, games + 1):
            required = n == 1
            for side in ("a", "b"):
                self.fields[f"game_{n}_{side}"] = forms.IntegerField(
                    label=POINTS_LABEL[side] % {"n": n},
                    min_value=0,
                    required=required,
                    widget=forms.NumberInput(attrs={"data-side": side, "inputmode": "numeric"}),
                )
            self.fields[f"game_{n}_hands"] = HandRecordsField(
                label=_("Game %(n)s: hand records (optional)") % {"n": n},
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
            )
        self.fields["lisa"] = forms.BooleanField(
            label=_("Lisa (the losers scored no normal points)"),
            required=False,
            help_text=_("With hand records, the rules engine decides."),
            widget=forms.CheckboxInput(attrs={"data-lisa": ""}),
        )
        self.fields["note"] = forms.CharField(label=_("Note"), max_length=300, required=False)
        if result is not None and not self.is_bound:
            for n, game in enumerate(result.games[:games], start=1):
                self.initial[f"game_{n}_a"] = game.get("points_a")
                self.initial[f"game_{n}_b"] = game.get("points_b")
                self.initial[f"game_{n}_hands"] = game.get("hands") or None
            self.initial["lisa"] = result.shutout

    def games(self) -> list[dict[str, Any]]:
        played = []
        for n in range(1, self.game_count + 1):
            a, b = self.cleaned_data.get(f"game_{n}_a"), self.cleaned_data.get(f"game_{n}_b")
            if a is None and b is None:
                continue
            played.append(
                {"points_a": a, "points_b": b, "hands": self.cleaned_data.get(f"game_{n}_hands")}
            )
        return played

    def lisa(self) -> bool:
        return bool(self.cleaned_data.get("lisa"))


class ScheduleForm(forms.Form):
    scheduled = forms.DateTimeField(label=_("Date and time"), required=False, widget=LOCAL_DATETIME)
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999, required=False)


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=300, required=False)


class SheetRowForm(ResultForm):
    """One row of a round sheet: a match's points (no hand records, no note) and the lisa
    tick. A row left blank is not played yet; a row typed must give both sides' points."""

    def __init__(self, *args: Any, games: int, result: Any = None, **kwargs: Any):
        super().__init__(*args, games=games, result=result, **kwargs)
        del self.fields["note"]
        for n in range(1, games + 1):
            del self.fields[f"game_{n}_hands"]
            for side in ("a", "b"):
                self.fields[f"game_{n}_{side}"].required = False

    def score_fields(self) -> list[tuple[Any, Any]]:
        """(A's box, B's box) of each game, in order."""
        return [(self[f"game_{n}_a"], self[f"game_{n}_b"]) for n in range(1, self.game_count + 1)]

    def describe(self, table: Any, a: Any, b: Any) -> None:
        """Name each box for screen readers: table, pair and game."""
        for n in range(1, self.game_count + 1):
            for side, entry in (("a", a), ("b", b)):
                label = _("Table %(t)s, %(pair)s, game %(n)s") % {"t": table, "pair": entry, "n": n}
                self.fields[f"game_{n}_{side}"].widget.attrs["aria-label"] = label
        label = _("Table %(t)s: lisa") % {"t": table}
        self.fields["lisa"].widget.attrs["aria-label"] = label

    def typed(self) -> bool:
        """Something was typed in this row."""
        return any(
            self.data.get(self.add_prefix(name)) not in (None, "")
            for name in self.fields
            if name != "lisa"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.typed() and not self.errors:
            a, b = data.get("game_1_a"), data.get("game_1_b")
            if a is None or b is None:
                raise forms.ValidationError(_("Enter both sides' points."))
        return data


class RoundTimeForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    time = forms.TimeField(
        label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )


def _label(name: str, model: Any = Autopilot) -> Any:
    """A model field's name as a form's label (capitalised when it is read)."""
    return capfirst(model._meta.get_field(name).verbose_name)


class AutopilotForm(forms.Form):
    """How an online event runs itself, as the organiser sets it on the run page: read as
    values only; `league.services.autopilot.configure` (the API's too) judges them, so a
    refusal reads the same on the page and over the API."""

    # The field each of the service's refusals is about, shown under it on the page.
    REFUSED_FIELDS = {
        "bad_start": "starts",
        "start_in_past": "starts",
        "bad_check_in": "check_in_minutes",
        "check_in_too_long": "check_in_minutes",
        "bad_pause": "pause_seconds",
        "best_of_online": "match_format",
        "bad_round_limit": "round_minutes",
        "round_too_short": "round_minutes",
        "bad_choice": "two_forfeits",
    }

    starts = forms.DateTimeField(label=_label("starts"), widget=LOCAL_DATETIME)
    check_in_minutes = forms.IntegerField(label=_label("check_in_minutes"))
    pause_seconds = forms.IntegerField(label=_label("pause_seconds"))
    match_format = forms.ChoiceField(
        label=_label("match_format", Event),
        choices=[c for c in Event.MatchFormat.choices if c[0] != Event.MatchFormat.BEST_OF],
    )
    round_minutes = forms.IntegerField(
        label=_label("round_minutes"),
        help_text=Autopilot._meta.get_field("round_minutes").help_text,
    )
    time_limit = forms.IntegerField(label=_label("time_limit", Event), required=False)
    turn_seconds = forms.IntegerField(label=rule_options.LABELS["turn_seconds"])
    two_forfeits = forms.ChoiceField(
        label=_label("two_forfeits"), choices=Autopilot.Forfeits.choices
    )

    def __init__(self, *args: Any, event: Event, pilot: Autopilot | None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["time_limit"].widget.attrs["data-match-format"] = "time_limit"
        if pilot is not None:
            self.initial.update(
                {name: getattr(pilot, name) for name in self.fields if hasattr(pilot, name)}
            )
            self.initial["starts"] = timezone.localtime(pilot.starts)
        else:
            defaults = Autopilot()
            self.initial.update(
                check_in_minutes=defaults.check_in_minutes,
                pause_seconds=defaults.pause_seconds,
                round_minutes=defaults.round_minutes,
                two_forfeits=defaults.two_forfeits,
            )
        fmt = event.match_format
        self.initial["match_format"] = fmt if fmt != Event.MatchFormat.BEST_OF else ""
        self.initial["time_limit"] = event.time_limit
        self.initial["turn_seconds"] = rules_of(event).turn_seconds

    def settings(self) -> dict[str, Any]:
        """The cleaned values as `configure`'s keyword arguments."""
        values = dict(self.cleaned_data)
        if values["match_format"] != Event.MatchFormat.TIME_LIMIT:
            values["time_limit"] = None
        return values
