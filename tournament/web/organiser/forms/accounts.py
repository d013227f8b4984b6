"""Referee accounts and API tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed
from tournament.services.accounts import (
    MOST_ACCOUNTS_AT_ONCE,
    numbered_usernames,
    parse_names,
    username_for,
)


class RefereeAccountForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput(render_value=False))
    password_again = forms.CharField(
        label=_("Password again"), widget=forms.PasswordInput(render_value=False)
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


class AttachRefereeForm(forms.Form):
    """An existing login added to the tournament's referees, by its username."""

    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        help_text=_(
            "A referee's login made for another tournament (or a plain login an administrator "
            "made). Its password stays as it is."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its field's id differs from the one of the form that makes an account, on one page.
        kwargs.setdefault("auto_id", "attach_%s")
        super().__init__(*args, **kwargs)


class RefereeAccountsForm(forms.Form):
    """Many referee accounts at once: numbered (referee-01, referee-02, …) or one per name."""

    count = forms.IntegerField(
        label=_("How many"),
        required=False,
        min_value=1,
        max_value=MOST_ACCOUNTS_AT_ONCE,
        error_messages={
            "max_value": _(
                "At most %(limit_value)s accounts can be made at once (each password takes "
                "about a second to protect); make the others in a second batch."
            )
        },
        help_text=_("Numbered accounts, such as referee-01, referee-02, …"),
    )
    username_prefix = forms.SlugField(
        label=_("Usernames begin with"),
        max_length=40,
        initial="referee",
        required=False,
        help_text=_("Numbers already taken by other accounts are skipped."),
    )
    names = forms.CharField(
        label=_("Or their names, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Each gets a username made from the name: Anna Schmidt → anna-schmidt."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Said when the form is drawn, in the reader's language.
        self.fields["count"].help_text = _(
            "Numbered accounts, such as referee-01, referee-02, …; at most %(most)s at once."
        ) % {"most": MOST_ACCOUNTS_AT_ONCE}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        names = parse_names(data.get("names") or "")
        count = data.get("count")
        usernames = [username_for(name) for name in names]
        empty = [name for name, username in zip(names, usernames, strict=True) if not username]
        if empty and "names" not in self.errors:
            # A check of the names alone: shown together with the other fields' errors.
            self.add_error(
                "names",
                _("No username can be made from %(names)s.") % {"names": listed(empty)},
            )
        if len(names) > MOST_ACCOUNTS_AT_ONCE and "names" not in self.errors:
            self.add_error(
                "names",
                _(
                    "At most %(most)s accounts can be made at once (each password takes about "
                    "a second to protect); these are %(count)s names: make the others in a "
                    "second batch."
                )
                % {"most": MOST_ACCOUNTS_AT_ONCE, "count": len(names)},
            )
        if self.errors:
            return data
        if names and count:
            raise ValidationError(_("Give either how many accounts or their names, not both."))
        if names:
            data["usernames"], data["people"] = usernames, names
        elif count:
            prefix = data.get("username_prefix") or "referee"
            data["usernames"], data["people"] = numbered_usernames(prefix, count), []
        else:
            self.add_error("count", _("Give how many accounts to make, or their names."))
        return data


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        help_text=_("What the token is for, such as “results screen”."),
    )
