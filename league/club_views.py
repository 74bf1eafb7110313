"""Pages of a club night's organiser: founding a club, its roster, importing entrants from a
CSV file, exporting an event as CSV, and the dashboard of what needs doing. Thin: forms
shape the input, services decide and write."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .event_forms import ClubForm, ImportForm, RosterPlayerForm
from .event_views import _event, refused
from .models import Event, Membership, Organisation, Player
from .notifications import absolute
from .permissions import can, require
from .services import clubs, dashboard, entries, exports, invitations
from .services.errors import ServiceError


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = clubs.create_club(request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            created = _("%(club)s is created, and you are its owner.") % {"club": club}
            messages.success(request, created)
            return redirect("club", slug=club.slug)
    return render(request, "league/club_form.html", {"form": form})


def _managed_club(request: HttpRequest, slug: str) -> Organisation:
    club = get_object_or_404(Organisation, slug=slug)
    require(request.user, "organisation.manage", club)
    return club


@login_required
@require_POST
@refused
def roster_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = _managed_club(request, slug)
    form = RosterPlayerForm(request.POST)
    if form.is_valid():
        player = clubs.add_player(request.user, club, **form.cleaned_data)
        messages.success(request, _("%(player)s is on the roster.") % {"player": player})
    else:
        messages.error(request, _("Check the player's name and email address."))
    return redirect(reverse("club", args=[slug]) + "#roster")


@login_required
@require_http_methods(["GET", "POST"])
def roster_player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A roster player: their details (while they have no account) and the invitation that
    lets them claim the record."""
    club = _managed_club(request, slug)
    player = get_object_or_404(clubs.roster(club), pk=pk)
    initial = {"display_name": player.display_name, "email": player.email, "phone": player.phone}
    form = RosterPlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            clubs.update_player(request.user, club, player, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(player)s is saved.") % {"player": player})
            return redirect(reverse("club", args=[slug]) + "#roster")
    open_invitations = player.invitations.filter(accepted=None, revoked=False)
    return render(
        request,
        "league/roster_player.html",
        {
            "club": club,
            "player": player,
            "form": form,
            "invitations": [(i, absolute(i.get_absolute_url())) for i in open_invitations],
        },
    )


@login_required
@require_POST
@refused
def roster_invite(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _managed_club(request, slug)
    player = get_object_or_404(clubs.roster(club), pk=pk)
    email = request.POST.get("email", "").strip()
    invitations.invite(
        request.user,
        club,
        Membership.Role.PLAYER,
        email,
        player=player,
    )
    messages.success(
        request,
        _("Invitation created: send the link to %(player)s.") % {"player": player}
        if not (email or player.email)
        else _("Invitation sent to %(email)s.") % {"email": email or player.email},
    )
    return redirect("roster_player", slug=slug, pk=pk)


@login_required
def roster_search(request: HttpRequest, slug: str) -> JsonResponse:
    """Roster players of the event's club whose name contains `q` (for the entry forms)."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    if not can(request.user, "event.enter", event):
        raise PermissionDenied
    found = clubs.search_roster(event.organisation, request.GET.get("q", ""))
    return JsonResponse(
        {
            "players": [
                {"id": p.pk, "name": p.display_name, "club": p.club.name if p.club else ""}
                for p in found
            ]
        }
    )


@login_required
@require_http_methods(["GET", "POST"])
def entries_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a CSV of entrants, see what it would enter and each bad row, then confirm."""
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    form = ImportForm(request.POST or None, request.FILES or None)
    context = {"event": event, "tab": "manage", "manager": True, "form": form, "preview": None}
    if request.method == "POST" and "text" in request.POST:
        add_players = request.POST.get("add_players") == "on"
        try:
            made = entries.import_entrants(
                request.user, event, request.POST["text"], add_players=add_players
            )
        except entries.ImportRefused as refusal:
            messages.error(request, refusal.message)
            context.update(preview=refusal.preview, add_players=add_players)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            imported = ngettext("%(n)s entry imported.", "%(n)s entries imported.", len(made))
            messages.success(request, imported % {"n": len(made)})
            return redirect("event_manage", slug=slug)
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read(entries.MAX_CSV_BYTES + 1)
        add_players = form.cleaned_data["add_players"]
        context.update(
            preview=entries.preview_entrants(event, data, add_players=add_players),
            add_players=add_players,
        )
    return render(request, "league/import.html", context)


EXPORTS = {"entries": exports.entries, "results": exports.results, "standings": exports.standings}


def export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """The event's entries, results or standings as a CSV file."""
    event = _event(request, slug)
    if kind not in EXPORTS:
        raise Http404
    heading, rows = EXPORTS[kind](event)
    response = HttpResponse(exports.to_csv(heading, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{kind}.csv"'
    return response


@login_required
def home_for(request: HttpRequest) -> HttpResponse:
    """Where a signed-in person lands: their events and what each needs now."""
    return render(
        request,
        "league/dashboard.html",
        {
            "items": dashboard.events_of(request.user),
            "clubs": dashboard.clubs_of(request.user),
            "player": Player.objects.filter(user=request.user).first(),
        },
    )
