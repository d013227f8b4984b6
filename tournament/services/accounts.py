"""User accounts made by organisers: referee logins, their passwords and lockouts, and API
tokens.

Making referee accounts (one or many), giving one a new password, deactivating or
reactivating one and lifting a referee's login lockout are kept in the tournament's audit trail
with who did it: the usernames (and the people's names given), never a password."""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from axes.utils import reset as forget_failed_logins
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed
from tournament.models import ApiToken, AuditEntry, RefereeAccount, RefereeListing, Tournament
from tournament.services.audit import record as audit_record

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

#: The most referee accounts made at once. Each new password is hashed (PBKDF2, Django's
#: default work factor), which was measured at 0.44 s on an idle two-core machine and 0.6 to
#: 1.6 s on the same machine busy serving a venue; 200 accounts took longer than the reverse
#: proxy waits for an answer (120 s, hosting/nginx.py), which showed the organiser a 504
#: although every account was made. 40 stay under 65 s at the slowest cost measured. More are
#: made by submitting again (numbered accounts skip the numbers already taken).
MOST_ACCOUNTS_AT_ONCE = 40
# Letters and digits that cannot be mistaken for one another when typed from paper on a phone.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_password() -> str:
    """A random password that is easy to type: three groups of four, about 59 bits."""
    return "-".join(
        "".join(secrets.choice(PASSWORD_ALPHABET) for _i in range(4)) for _group in range(3)
    )


def _make_account(tournament: Tournament, username: str, password: str, name: str = "") -> User:
    user = get_user_model()(username=username.strip(), first_name=name[:150])
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
    RefereeAccount.objects.create(user=user, tournament=tournament)
    return user


def _taken_hint(tournament: Tournament, username: str) -> ValidationError | None:
    """The refusal of a new account named like an existing one, pointing to adding the
    existing one instead (None when the name is free)."""
    if not get_user_model().objects.filter(username=username.strip()).exists():
        return None
    return ValidationError(
        _(
            "%(username)s is taken by another account. If it is a referee's login from another "
            "tournament, add it to this tournament with “Add an existing account” instead."
        ),
        code="taken",
        params={"username": username.strip()},
    )


def audit_accounts(
    tournament: Tournament | int, actor: User, action: str, record: dict[str, Any]
) -> AuditEntry:
    """Keep in the audit trail of `tournament` that `actor` did `action` to referee accounts,
    `record` naming them (usernames and names only: never a password)."""
    return audit_record(tournament, action, actor=actor, after=record)


@transaction.atomic
def create_referee_account(
    *, tournament: Tournament, username: str, password: str, actor: User
) -> User:
    """A plain login with no rights of its own, listed among the referees of `tournament`: it
    may enter results only at the tables it is assigned to. Raises ValidationError on the
    username or password field (code "taken" when another account has the username). The
    audit trail keeps who made it."""
    taken = _taken_hint(tournament, username)
    if taken is not None:
        raise ValidationError({"username": taken})
    user = _make_account(tournament, username, password)
    audit_accounts(
        tournament, actor, AuditEntry.Action.ACCOUNT_CREATED, {"username": user.get_username()}
    )
    return user


@transaction.atomic
def restore_referee_accounts(
    *,
    tournament: Tournament,
    actor: User,
    new: Sequence[tuple[str, str]],
    again: Sequence[User] = (),
) -> list[User]:
    """The referee accounts an archive lists, in a few statements whatever their number: for
    each (username, name) of `new` a login with no usable password (a password never travels
    in an archive: the organiser gives each one), and the existing users of `again` (whom the
    caller found may be, see `attachable_problem`) made referees of `tournament` again. One
    entry of the audit trail names them all. Returns the new users; their usernames are
    checked by the caller (the user model's `username_validator`), which names the place."""
    users = []
    for username, name in new:
        user = get_user_model()(username=username, first_name=name)
        user.set_unusable_password()
        users.append(user)
    get_user_model().objects.bulk_create(users)
    made = [*users, *again]
    RefereeAccount.objects.bulk_create(
        [RefereeAccount(user=user, tournament=tournament) for user in made]
    )
    if made:
        named = {"usernames": sorted(user.get_username() for user in made)}
        audit_accounts(tournament, actor, AuditEntry.Action.ACCOUNTS_CREATED, named)
    return users


def numbered_usernames(prefix: str, count: int) -> list[str]:
    """`count` usernames prefix-01, prefix-02, … that no account has yet (taken numbers are
    skipped), with at least two digits."""
    taken = set(
        get_user_model()
        .objects.filter(username__startswith=f"{prefix}-")
        .values_list("username", flat=True)
    )
    names: list[str] = []
    number = 0
    while len(names) < count:
        number += 1
        name = f"{prefix}-{number:02d}"
        if name not in taken:
            names.append(name)
    return names


def username_for(name: str) -> str:
    """The username made from a person's name: lower case, accents dropped, words joined by
    "-" (letters of any script are kept: Zoë Ærø → zoe-ærø, 王小明 → 王小明)."""
    bare = "".join(
        char for char in unicodedata.normalize("NFKD", name) if not unicodedata.combining(char)
    )
    return slugify(bare, allow_unicode=True)[:150]


@transaction.atomic
def create_referee_accounts(
    *,
    tournament: Tournament,
    usernames: Sequence[str],
    actor: User,
    names: Sequence[str] = (),
) -> list[tuple[User, str]]:
    """Accounts for the referees of `tournament`, each with a new password: the accounts and
    their passwords, to be shown once. `names` (if given) are the people's names, in the order
    of `usernames`. All or nothing: raises ValidationError on "usernames" (codes
    "too_many", "repeated", "taken", "bad_username") and creates no account then. One entry
    of the audit trail names them all."""
    if not usernames:
        raise ValidationError({"usernames": _("Give at least one referee.")})
    if len(usernames) > MOST_ACCOUNTS_AT_ONCE:
        raise ValidationError(
            {
                "usernames": ValidationError(
                    _(
                        "At most %(most)s accounts can be made at once (each password takes "
                        "about a second to protect); make the others in a second batch."
                    ),
                    code="too_many",
                    params={"most": MOST_ACCOUNTS_AT_ONCE},
                )
            }
        )
    repeated = sorted({name for name in usernames if list(usernames).count(name) > 1})
    if repeated:
        raise ValidationError(
            {
                "usernames": ValidationError(
                    _("These usernames come more than once: %(names)s."),
                    code="repeated",
                    params={"names": listed(repeated)},
                )
            }
        )
    taken = sorted(
        get_user_model().objects.filter(username__in=usernames).values_list("username", flat=True)
    )
    if taken:
        raise ValidationError(
            {
                "usernames": ValidationError(
                    _(
                        "These usernames are taken by other accounts: %(names)s. A referee's "
                        "login from another tournament can be added with “Add an existing "
                        "account” instead."
                    ),
                    code="taken",
                    params={"names": listed(taken)},
                )
            }
        )
    made = []
    people = list(names) or [""] * len(usernames)
    for username, name in zip(usernames, people, strict=True):
        password = new_password()
        try:
            user = _make_account(tournament, username, password, name)
        except ValidationError as error:
            problems = "; ".join(
                str(message) for messages in error.message_dict.values() for message in messages
            )
            raise ValidationError(
                {
                    "usernames": ValidationError(
                        _("%(username)s cannot be used: %(problems)s"),
                        code="bad_username",
                        params={"username": username, "problems": problems},
                    )
                }
            ) from error
        made.append((user, password))
    record: dict[str, Any] = {"usernames": [user.get_username() for user, _pw in made]}
    if any(user.first_name for user, _pw in made):
        record["names"] = [user.first_name for user, _pw in made]
    audit_accounts(tournament, actor, AuditEntry.Action.ACCOUNTS_CREATED, record)
    return made


def attachable_problem(user: User | None, username: str) -> ValidationError | None:
    """Why the account `user` (looked up by `username`) may not be added to a tournament's
    referees, or None when it may: only an active plain login can be, one with no rights of
    its own (not staff, not an administrator, organising no tournament, with no permission
    or group), since an organiser who adds it is trusting its holder with their tables."""
    if user is None:
        return ValidationError(
            _("No account has the username %(username)s."),
            code="no_such_account",
            params={"username": username},
        )
    if (
        user.is_staff
        or user.is_superuser
        or user.organised_tournaments.exists()
        or user.user_permissions.exists()
        or user.groups.exists()
    ):
        return ValidationError(
            _(
                "%(username)s is more than a referee's login (an organiser's or an "
                "administrator's): it cannot be added as a referee."
            ),
            code="not_only_referee",
            params={"username": username},
        )
    if not user.is_active:
        return ValidationError(
            _("%(username)s is deactivated: it cannot be added as a referee."),
            code="inactive_account",
            params={"username": username},
        )
    return None


@transaction.atomic
def attach_referee_account(*, tournament: Tournament, username: str, actor: User) -> User:
    """Add an existing login to the referees of `tournament` (`RefereeListing`), so that its
    tables may be given to it: typically a referee account another tournament made. Its
    password and its activation stay with the tournament that made it. Raises ValidationError
    on "username" (codes "no_such_account", "not_only_referee", "inactive_account",
    "already_referee"). The audit trail keeps who added it (ACCOUNT_CREATED with
    "attached": true)."""
    username = username.strip()
    user = get_user_model().objects.select_for_update().filter(username=username).first()
    problem = attachable_problem(user, username)
    if problem is not None:
        raise ValidationError({"username": problem})
    assert user is not None
    listed_here = (
        RefereeAccount.objects.filter(user=user, tournament=tournament).exists()
        or RefereeListing.objects.filter(user=user, tournament=tournament).exists()
    )
    if listed_here:
        raise ValidationError(
            {
                "username": ValidationError(
                    _("%(username)s is already one of this tournament's referees."),
                    code="already_referee",
                    params={"username": username},
                )
            }
        )
    RefereeListing.objects.create(tournament=tournament, user=user, added_by=actor)
    made_by = getattr(user, "referee_account", None)
    after: dict[str, Any] = {"username": user.get_username(), "attached": True}
    if made_by is not None:
        after["made_for"] = made_by.tournament.slug
    audit_record(tournament, AuditEntry.Action.ACCOUNT_CREATED, actor=actor, after=after)
    return user


def parse_names(text: str) -> list[str]:
    """The non-empty lines of `text`, spaces tidied."""
    return [re.sub(r"\s+", " ", line).strip() for line in text.splitlines() if line.strip()]


def _only_referee(account: RefereeAccount, message: _StrPromise) -> User:
    """The account's user, locked; refused with `message` (code "not_only_referee") when it
    was given more rights since it was made: then it is an administrator's business."""
    user = get_user_model().objects.select_for_update().get(pk=account.user_id)
    if user.is_staff or user.is_superuser or user.organised_tournaments.exists():
        raise ValidationError(
            message, code="not_only_referee", params={"username": user.get_username()}
        )
    return user


@transaction.atomic
def reset_referee_password(*, account: RefereeAccount, actor: User) -> str:
    """Give the referee account a new random password, returned to be shown once. Its open
    sessions end (Django ties a session to the password), its API tokens are revoked (a new
    password is a new start: a program must be given a new token) and any login lockout is
    lifted. The audit trail keeps who gave it (not the password) and how many tokens went."""
    # The account was given more rights since: its password is its own business now.
    user = _only_referee(
        account,
        _(
            "%(username)s is more than a referee account now; only an administrator can "
            "change its password."
        ),
    )
    password = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    revoked = _revoke_tokens(user)
    forget_failed_logins(username=user.get_username())
    audit_accounts(
        account.tournament_id,
        actor,
        AuditEntry.Action.PASSWORD_RESET,
        {"username": user.get_username(), **({"tokens_revoked": revoked} if revoked else {})},
    )
    return password


def _revoke_tokens(user: User) -> int:
    """Delete every API token of `user`; how many there were."""
    deleted, _by_model = ApiToken.objects.filter(user=user).delete()
    return deleted


@transaction.atomic
def set_referee_active(*, account: RefereeAccount, active: bool, actor: User) -> bool:
    """Deactivate the referee account (it can no longer log in, its sessions end and its API
    tokens are revoked, so that making it active again revives none of them; its tables and
    the results it entered stay) or make it active again. Returns whether anything changed; a
    change is kept in the audit trail."""
    user = _only_referee(
        account,
        _(
            "%(username)s is more than a referee account now; only an administrator can "
            "deactivate or reactivate it."
        ),
    )
    if user.is_active == active:
        return False
    user.is_active = active
    user.save(update_fields=["is_active"])
    record: dict[str, object] = {"username": user.get_username()}
    if not active:
        revoked = _revoke_tokens(user)
        if revoked:
            record["tokens_revoked"] = revoked
    action = (
        AuditEntry.Action.ACCOUNT_REACTIVATED if active else AuditEntry.Action.ACCOUNT_DEACTIVATED
    )
    audit_accounts(account.tournament_id, actor, action, record)
    return True


@transaction.atomic
def revoke_token(*, token: ApiToken) -> None:
    """Delete `token`: programs using its secret are refused from now on."""
    ApiToken.objects.filter(pk=token.pk).delete()


def unlock_login(
    *, username: str, tournament: Tournament | None = None, actor: User | None = None
) -> int:
    """Forget the wrong passwords counted against `username` from every address (django-axes):
    a locked-out user may log in again at once. Returns how many records were dropped. With
    `tournament` and `actor` (an organiser unlocking one of its referees), the audit trail of
    the tournament keeps who did it."""
    dropped = forget_failed_logins(username=username)
    if tournament is not None and actor is not None:
        audit_accounts(tournament, actor, AuditEntry.Action.LOGIN_UNLOCKED, {"username": username})
    return dropped
