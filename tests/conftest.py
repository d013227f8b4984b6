"""Fixtures shared by the test modules: an organiser and a tournament they run."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Tournament


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="alice", password="correct-horse-42")


@pytest.fixture
def tournament(organiser):
    tournament = Tournament.objects.create(name="Spring Cup", slug="spring-cup", public=True)
    tournament.organisers.add(organiser)
    return tournament
