"""User accounts made by organisers: referee logins, their lockouts, and API tokens."""

from __future__ import annotations

from axes.utils import reset as forget_failed_logins
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tournament.models import ApiToken


@transaction.atomic
def create_referee_account(*, username: str, password: str) -> User:
    """A plain login with no rights of its own: it may enter results only at the tables it is
    assigned to. Raises ValidationError on the username or password field."""
    user = get_user_model()(username=username.strip())
    user.full_clean(exclude=["password"])
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise ValidationError({"password": error.error_list}) from error
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:  # a concurrent sign-up with the same name
        message = _("A user with that username already exists.")
        raise ValidationError({"username": message}) from error
    return user


@transaction.atomic
def revoke_token(*, token: ApiToken) -> None:
    """Delete `token`: programs using its secret are refused from now on."""
    ApiToken.objects.filter(pk=token.pk).delete()


def unlock_login(*, username: str) -> int:
    """Forget the wrong passwords counted against `username` from every address (django-axes):
    a locked-out user may log in again at once. Returns how many records were dropped."""
    return forget_failed_logins(username=username)
