from django.contrib import admin

from .forms import AdminSignInForm
from .models import (
    AuditEntry,
    Division,
    Entry,
    Event,
    Invitation,
    Match,
    Membership,
    Notification,
    Organisation,
    Player,
    Result,
    Round,
    Season,
)

# The admin's sign-in page counts against the same limits as the site's.
admin.site.login_form = AdminSignInForm


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "parent", "country"]
    list_filter = ["kind", "country"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "country", "user"]
    list_filter = ["club", "country"]
    search_fields = ["display_name", "user__username"]
    autocomplete_fields = ["user", "club"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "message", "created", "read"]
    list_filter = ["read"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["organisation", "role", "email", "created", "accepted", "revoked"]
    list_filter = ["role", "revoked"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "starts", "ends"]


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "season", "format", "status", "mode"]
    list_filter = ["format", "status", "mode"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [DivisionInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "division", "status", "registered", "checked_in"]
    list_filter = ["status"]
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "division", "number", "date"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["event", "round", "entry_a", "entry_b", "table", "scheduled", "status"]
    list_filter = ["status"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["match", "status", "games_a", "games_b", "points_a", "points_b", "entered"]
    list_filter = ["status"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "actor", "action", "target"]
    list_filter = ["action"]
