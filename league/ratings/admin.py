from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from league.services.errors import ServiceError

from . import services
from .models import EventPool, Rating, RatingPool


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "organisation", "recalculated"]
    list_filter = ["kind"]
    search_fields = ["name", "slug"]
    readonly_fields = ["recalculated"]
    actions = ["recalculate"]

    @admin.action(description=_("Recalculate from scratch"))
    def recalculate(self, request, queryset) -> None:
        for pool in queryset:
            services.reindex(pool)
        messages.success(request, _("The recalculation is queued."))


class EventPoolForm(forms.ModelForm):
    class Meta:
        model = EventPool
        fields = ["event", "pool"]

    def clean(self) -> dict:
        data = super().clean()
        event = data.get("event") if "event" in self.fields else self.instance.event
        if event and data.get("pool"):
            try:
                services.check_feed(event, data["pool"])
            except ServiceError as error:
                raise forms.ValidationError(error.message, code=error.code) from error
        return data


@admin.register(EventPool)
class EventPoolAdmin(admin.ModelAdmin):
    """Which events feed which pool; saving one queues the recalculations it needs."""

    form = EventPoolForm
    list_display = ["event", "pool"]
    list_filter = ["pool"]
    autocomplete_fields = ["event"]

    def get_readonly_fields(self, request, obj=None) -> list[str]:
        return ["event"] if obj else []

    def save_model(self, request, obj, form, change) -> None:
        services.feed(obj.event, obj.pool)

    def delete_model(self, request, obj) -> None:
        services.feed(obj.event, None)

    def delete_queryset(self, request, queryset) -> None:
        for link in queryset.select_related("event"):
            services.feed(link.event, None)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "pool", "ordinal", "matches"]
    list_filter = ["pool"]
    search_fields = ["player__display_name"]
    readonly_fields = ["pool", "player", "mu", "sigma", "ordinal", "matches"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
