from django.contrib import admin

from .models import Membership, Notification, Organisation, Player


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
