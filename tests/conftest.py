"""Fixtures shared by the tests (plain helpers live in ``helpers.py``)."""

import pytest
from helpers import position


@pytest.fixture
def make_position():
    return position
