from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .touched import updated_field


class Organisation(models.Model):
    """A club, or a federation or association that groups clubs."""

    class Kind(models.TextChoices):
        CLUB = "club", _("Club")
        ASSOCIATION = "association", _("Association")
        FEDERATION = "federation", _("Federation")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.CLUB)
    parent = models.ForeignKey(
        "self",
        verbose_name=_("member of"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="members",
    )
    country = models.CharField(_("country"), max_length=2, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = updated_field()

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")
        CAPTAIN = "captain", _("Captain")
        PLAYER = "player", _("Player")

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "user", "role"], name="unique_membership_role"
            )
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.organisation}"


class Invitation(models.Model):
    """A link (optionally sent by email) that makes whoever accepts it a member."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(_("role"), max_length=16, choices=Membership.Role.choices)
    email = models.EmailField(_("email"), blank=True)
    token = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(_("expires"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted = models.DateTimeField(_("accepted"), null=True, blank=True)
    revoked = models.BooleanField(_("revoked"), default=False)
    player = models.ForeignKey(
        "Player",
        verbose_name=_("player to claim"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text=_("Whoever accepts becomes this player, keeping their history."),
    )

    class Meta:
        ordering = ["-created"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.organisation} · {self.get_role_display()} · {self.email or self.token[:8]}"

    def get_absolute_url(self) -> str:
        return reverse("invitation", args=[self.token])


class Player(models.Model):
    """A person who plays. Over-the-board players may have no account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    display_name = models.CharField(_("display name"), max_length=80)
    club = models.ForeignKey(
        Organisation,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    email = models.EmailField(
        _("email"),
        blank=True,
        help_text=_("For a player without an account: where news reaches them."),
    )
    phone = models.CharField(_("phone"), max_length=32, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    photo = models.ImageField(_("photo"), upload_to="players/", blank=True)
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Notifications and emails reach you in this language."),
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = updated_field()

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])

    @property
    def contact_email(self) -> str:
        """Where email reaches the player: their account's address, else the roster's."""
        return (self.user.email if self.user_id else "") or self.email


class Notification(models.Model):
    """A message on the site for one user; also pushed to their open pages."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    message = models.CharField(_("message"), max_length=300)
    url = models.CharField(_("link"), max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(_("read"), default=False)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "read"])]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return self.message
