"""Pages of the live tables: thin callers of the table and matchmaking services."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .analysis import analysis_answer, analysis_strings
from .disputes.review import catalogue, explain
from .forms import NAME_LABELS, PrivateTableForm
from .models import BotLevel, Hand, QueueEntry, Table
from .services import matchmaking, ratings, rematch, reviews, tables
from .services.errors import TableError


def plural_forms(singular: str, plural: str) -> dict[str, str]:
    """A counted string's forms for 0, 1 and more, in the current language (the page's
    `plural` picks one: the three languages have two forms, `pt-BR` counting 0 as one)."""
    return {
        n: ngettext(singular, plural, count) for n, count in (("zero", 0), ("one", 1), ("other", 2))
    }


def table_strings() -> dict:
    """The table page's JavaScript strings, translated (rendered as a JSON catalogue)."""
    return {
        "your_turn": _("Your turn"),
        "waiting_for": _("Waiting for %(name)s"),
        "waiting_seats": _("Waiting for players to sit down."),
        "seat": _("Seat %(n)s"),
        "empty": _("Empty seat"),
        "you": _("you"),
        "partner": _("partner"),
        "bot": _("Bot"),
        "bot_plays": _("a bot plays"),
        "offline": _("offline"),
        "passed_tag": _("passed"),
        "sit": _("Sit here"),
        "add_bot": _("Add a bot"),
        "bot_level": _("Bot level"),
        "levels": {level: str(label) for level, label in BotLevel.choices},
        "tiles": plural_forms("%(n)s tile", "%(n)s tiles"),
        "tile_label": _("Tile %(tile)s"),
        "tile_playable": _("Tile %(tile)s, playable"),
        "pass": _("Pass"),
        "draw": _("Draw"),
        "draw_hint": _("Nothing fits: draw from the boneyard."),
        "cancel": _("Cancel"),
        "keep_points": _("Keep the points"),
        "redeal": _("Redeal"),
        "five_doubles": _("You hold five doubles: keep the points or ask for a redeal?"),
        "five_doubles_yours": _("Five doubles: choose."),
        "next": _("Next hand"),
        "ready": _("Ready"),
        "ready_count": _("Ready: %(n)s of %(total)s."),
        "next_in": plural_forms(
            "Players who are away count as ready in %(n)s second.",
            "Players who are away count as ready in %(n)s seconds.",
        ),
        "this_hand": _("This hand"),
        "us": _("Us"),
        "them": _("Them"),
        "you_side": _("You"),
        "side": _("Pair %(n)s"),
        "hand_n": _("Hand %(n)s"),
        "boneyard": plural_forms("Boneyard: %(n)s tile", "Boneyard: %(n)s tiles"),
        "count": _("Count: %(n)s"),
        "direction": {
            "ccw": _("Play goes counter-clockwise"),
            "cw": _("Play goes clockwise"),
        },
        "ended_domino": _("%(name)s dominoed."),
        "ended_redeal": _("Redeal: nobody scores, the tiles are dealt again."),
        "block_won_seat": _("Tranque: %(name)s wins it."),
        "block_won_side": _("Tranque: the hand goes to %(side)s."),
        "tie": _("Tranque tied: nobody scores."),
        "why_blocker_vs_next": _(
            "%(blocker)s blocked with %(bpips)s pips; %(next)s, next to play, held %(npips)s."
            " Fewer pips win, and a tie goes to the blocker."
        ),
        "why_lowest_side": _("Pips left: %(us)s %(a)s, %(them)s %(b)s. The pair with fewer wins."),
        "why_tie": _("Equal: nobody scores."),
        "why_lowest_seat": _("Pips left: %(pips)s. The player with fewer wins."),
        # Without pairs every seat plays on its own.
        "singles": {
            "rule_domino": {
                "all_hands": _("the pips left in every other hand"),
                "opponents": _("the pips left in the other players' hands"),
            },
            "rule_block": {
                "others": _("the pips in every hand but the winner's own"),
                "all_hands": _("the pips in every hand"),
                "opponents": _("the pips in the other players' hands"),
            },
            "target_reached": _("A player reached the target."),
            "shutout_text": _(
                "%(name)s! Every other player ended the match without a hand's points."
            ),
        },
        "rule_domino": {
            "all_hands": _("the pips left in every other hand, partner's included"),
            "opponents": _("the pips left in the opponents' hands"),
        },
        "rule_block": {
            "others": _("the pips in every hand but the winner's own"),
            "all_hands": _("the pips in all four hands"),
            "opponents": _("the pips in the losing pair's hands"),
        },
        "rule_penalty": _("each losing side's own pips, which that side scores"),
        "counted": _("Counted: %(rule)s."),
        "rounded": _("Rounded down to a multiple of %(n)s."),
        "capped": _("Capped: bonuses cannot reach the target."),
        "nobody_scores": _("Nobody scores."),
        "player": _("Player"),
        "tiles_left": _("Tiles left"),
        "pips": _("Pips"),
        "left_in_hands": _("The tiles left in each hand"),
        "no_tiles": _("none"),
        "shutout": _("Shutout"),
        "shutout_names": {
            "dominican": _("Lisa"),
            "tournament": _("Pollona"),
            "latin": _("Pollona"),
        },
        "shutout_text": _("%(name)s! The other side ended the match without a hand's points."),
        "match_won": {
            "us": _("We win the match!"),
            "you": _("You win the match!"),
            "them": _("They win the match."),
            "side": _("%(side)s wins the match."),
        },
        "forfeit": _("Forfeit: %(side)s lost the match by absence."),
        "abandoned": _("The table was abandoned."),
        "finished": _("This table has finished."),
        "finish_why": {
            "target": _("A pair reached the target."),
            "forfeit": _("A player was absent for a whole hand at a competition table."),
            "abandoned": _("Every seat was left to a bot."),
        },
        "finish_why_ranked": {
            "forfeit": _(
                "A player was absent for a whole hand at a ranked table: that pair loses the match."
            ),
        },
        "shutout_counts": plural_forms(
            "It counts as %(n)s match won.", "It counts as %(n)s matches won."
        ),
        "ranked_counts": _("This ranked match counts for the online ranking."),
        "see_ranking": _("See the ranking"),
        "final_score": _("Final score:"),
        "hand": _("Hand"),
        "ended_kinds": {"domino": _("domino"), "block": _("tranque"), "redeal": _("redeal")},
        "play_again": _("Play again"),
        "to_lobby": _("Back to the lobby"),
        "where_lost": _("Where was this hand lost?"),
        "spectating": _("You are watching."),
        "bot_for_you": _("A bot is playing your seat since you were away for a whole hand."),
        "take_back": _("Take my seat back"),
        "reconnecting": _("Reconnecting…"),
        "choose_place": _("Where? Tap a lit end, or:"),
        "ends": {"left": _("Left"), "right": _("Right"), "up": _("Up"), "down": _("Down")},
        "kinds": {
            "hand_domino": _("domino: pips left"),
            "hand_block": _("tranque: pips left"),
            "table": _("table points"),
            "pass": _("pass"),
            "galo": _("galo"),
            "paso_corrido": _("paso corrido"),
            "capicua": _("capicúa"),
            "opening_bonus": _("salida"),
            "double_domino": _("domino with a double"),
            "no_double_penalty": _("no double to open"),
            "five_doubles": _("five doubles"),
        },
        "log": {
            "passed": _("%(name)s passed"),
            "drew": _("%(name)s drew"),
            "drew_n": plural_forms("%(name)s drew %(n)s tile", "%(name)s drew %(n)s tiles"),
            "opened": _("%(name)s opened with %(tile)s"),
            "played": _("%(name)s played %(tile)s"),
            "played_left": _("%(name)s played %(tile)s on the left"),
            "played_right": _("%(name)s played %(tile)s on the right"),
            "played_up": _("%(name)s played %(tile)s at the top"),
            "played_down": _("%(name)s played %(tile)s at the bottom"),
            "kept_points": _("%(name)s kept the points for five doubles"),
            "asked_redeal": _("%(name)s asked for a redeal"),
            "redealt": _("Redeal: new tiles were dealt."),
            "scored": _("%(side)s: +%(points)s %(rule)s"),
            "auto": _("(timer)"),
        },
    }


def lobby_context(request: HttpRequest, form: PrivateTableForm | None = None) -> dict:
    """The lobby's context: the private-table form, the matchmaking kinds, the user's tables."""
    mine = []
    if request.user.is_authenticated:
        mine = (
            Table.objects.filter(seats__user=request.user)
            .exclude(status=Table.Status.FINISHED)
            .annotate(mine_bot=F("seats__bot"))
            .order_by("-created")
        )
    form = form if form is not None else PrivateTableForm()
    return {"form": form, "tables": mine, **queues_context()}


def queues_context() -> dict:
    """The matchmaking queues of each rule set, with how many people wait in each."""
    counts = matchmaking.waiting_counts()
    kinds = {
        QueueEntry.Kind.QUICK: _("Quick"),
        QueueEntry.Kind.DUO: _("Duo"),
        QueueEntry.Kind.RANKED: _("Ranked"),
    }
    rows = [
        {
            "rules": rules,
            "label": NAME_LABELS.get(rules, rules),
            "cells": [(kind, counts[rules].get(kind)) for kind in kinds],
        }
        for rules in matchmaking.QUEUES
    ]
    return {
        "queues": rows,
        "queue_kinds": list(kinds.items()),
        "queue_counts": counts,
        "waiting_strings": {
            "waiting": _("%(n)s waiting"),
            "none": _("nobody waiting"),
        },
        "ranking_url": ratings.ranking_url(),
    }


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", lobby_context(request))


@login_required
@require_POST
def new_table(request: HttpRequest) -> HttpResponse:
    form = PrivateTableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", lobby_context(request, form))
    table = tables.create_table(
        host=request.user,
        rules=form.cleaned_data["spec"],
        next_hand_seconds=form.cleaned_data["next_hand_seconds"],
    )
    return redirect("table", code=table.code)


def table(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    config = {
        "id": table.pk,
        "socket": f"/ws/tables/{table.pk}/",
        "user": request.user.pk if request.user.is_authenticated else None,
        "invite": request.build_absolute_uri(reverse("table", args=[table.code])),
        "lobby": reverse("play"),
        "hands": reverse("table", args=[table.code]) + "hands/",
        "again": None if table.fixture_id else reverse("play_again", args=[table.code]),
        "ranking": ratings.ranking_url() if table.kind == Table.Kind.RANKED else None,
    }
    return render(
        request,
        "games/table.html",
        {"table": table, "config": config, "strings": table_strings()},
    )


@login_required
@require_POST
def play_again(request: HttpRequest, code: str) -> HttpResponse:
    """A finished table's player plays again: a new private table under the same rules, or
    the same matchmaking queue."""
    table = get_object_or_404(Table, code=code)
    try:
        found = rematch.play_again(table, request.user)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("table", code=table.code)
    if found is not None:
        return redirect("table", code=found.code)
    return redirect("queue")


@login_required
@require_POST
def join_queue(request: HttpRequest) -> HttpResponse:
    partner = None
    if name := request.POST.get("partner", "").strip():
        partner = get_user_model().objects.filter(username=name).first()
        if partner is None:
            messages.error(request, _("There is no player called %(name)s.") % {"name": name})
            return redirect("play")
    kind = request.POST.get("kind", "")
    if kind == QueueEntry.Kind.DUO and partner is None:
        messages.error(request, _("Name your partner to play as a pair."))
        return redirect("play")
    rules = request.POST.get("rules", matchmaking.DEFAULT_RULES)
    try:
        found = matchmaking.join_queue(request.user, kind, partner, rules)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("play")
    if found is not None:
        return redirect("table", code=found.code)
    return redirect("queue")


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """The page of a user waiting for a matchmade table (it polls `queue_status`)."""
    status = matchmaking.queue_status(request.user)
    if isinstance(status, Table):
        return redirect("table", code=status.code)
    if status is None:
        return redirect("play")
    rules, kind = matchmaking.waiting_in(request.user) or (matchmaking.DEFAULT_RULES, "")
    context = {
        "rules": rules,
        "rules_label": NAME_LABELS.get(rules, rules),
        "kind": kind,
        "kind_label": dict(QueueEntry.Kind.choices).get(kind, ""),
        "waiting": matchmaking.waiting_counts().get(rules, {}).get(kind, 0),
    }
    return render(request, "games/queue.html", context)


@login_required
def queue_status(request: HttpRequest) -> JsonResponse:
    status = matchmaking.queue_status(request.user)
    if isinstance(status, Table):
        return JsonResponse({"table": reverse("table", args=[status.code])})
    return JsonResponse({"waiting": bool(status), "counts": matchmaking.waiting_counts()})


def queue_counts(request: HttpRequest) -> JsonResponse:
    """How many people wait in each queue, for the lobby's live counts."""
    return JsonResponse({"counts": matchmaking.waiting_counts()})


@login_required
@require_POST
def leave_queue(request: HttpRequest) -> HttpResponse:
    matchmaking.leave_queue(request.user)
    return redirect("play")


def _hand(request: HttpRequest, code: str, number: int) -> Hand:
    """A finished live hand the user may see; anyone else is told it does not exist."""
    hand = get_object_or_404(
        Hand.objects.select_related("table__fixture__event"), table__code=code, number=number
    )
    if not reviews.may_see_hand(request.user, hand):
        raise Http404
    return hand


@login_required
def hand(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A finished hand: its replay, and the analysis of where it was lost."""
    hand = _hand(request, code, number)
    context = {
        "hand": hand,
        "record": reviews.shown_record(hand.record),
        "review": reviews.shown_review(explain(hand.record)),
        "catalogue": catalogue(),
        "analysis_url": reverse("hand_analysis", args=[code, number]),
        "analysis_i18n": analysis_strings(),
    }
    return render(request, "games/hand.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def hand_analysis(request: HttpRequest, code: str, number: int) -> JsonResponse:
    return analysis_answer(request, _hand(request, code, number).record)
