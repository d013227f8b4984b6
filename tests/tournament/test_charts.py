"""The SVG chart helper: safe markup, text alternatives and geometry that follows the numbers."""

from __future__ import annotations

import re

from tournament.web.charts import Series, bar_chart, line_chart, nice_ticks


def numbers(svg: str, element: str, attribute: str) -> list[float]:
    return [
        float(value)
        for value in re.findall(rf'<{element}\b[^>]*\b{attribute}="(-?[\d.]+)"', str(svg))
    ]


def test_nice_ticks_are_round_steps_covering_the_range():
    assert nice_ticks(0, 17) == [0, 5, 10, 15, 20]
    assert nice_ticks(-120, 340) == [-200, 0, 200, 400]
    assert nice_ticks(1, 2, integer=True) == [1, 2]
    # One value: an axis from zero to it (a single point of 5 is not drawn on 4-6).
    assert nice_ticks(5, 5, integer=True) == [0, 2, 4, 6]
    assert nice_ticks(50, 50, integer=True) == [0, 20, 40, 60]
    assert nice_ticks(-36, -36, integer=True) == [-40, -30, -20, -10, 0]
    assert nice_ticks(0, 0, integer=True) == [0, 1]


def test_line_chart_has_a_title_a_description_and_scales_to_its_container():
    chart = line_chart(
        title="Score after each round", labels=["1", "2"], series=[Series("Score", [10, 20])]
    )
    svg = str(chart.svg)
    assert svg.startswith("<svg")
    assert 'viewBox="0 0 360 230"' in svg and 'width="100%"' in svg and 'role="img"' in svg
    assert '<title id="chart-score-after-each-round-title">Score after each round</title>' in svg
    assert "The numbers are in the table below it." in svg
    assert not chart.empty


def test_text_is_escaped():
    chart = bar_chart(
        title="<script>alert(1)</script>",
        labels=["<b>1</b>"],
        series=[Series("A & B", [3])],
    )
    svg = str(chart.svg)
    assert "<script>" not in svg and "<b>" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert "&lt;b&gt;1&lt;/b&gt;" in svg


def test_the_table_holds_the_same_numbers_as_the_drawing():
    chart = line_chart(
        title="Scores",
        labels=["1", "2", "3"],
        series=[Series("Ann", [10, -5, None]), Series("Ben", [0, 7, 12])],
        x_label="Round",
    )
    assert chart.headers == ["Round", "Ann", "Ben"]
    assert chart.rows == [["1", "10", "0"], ["2", "−5", "7"], ["3", "–", "12"]]


def test_a_line_has_one_marker_per_known_value_and_higher_values_sit_higher():
    chart = line_chart(title="Score", labels=["1", "2", "3"], series=[Series("S", [0, 50, None])])
    ys = numbers(chart.svg, "circle", "cy")
    assert len(ys) == 2
    assert ys[1] < ys[0]  # SVG y grows downwards: 50 is drawn above 0


def test_an_inverted_chart_puts_rank_one_at_the_top():
    chart = line_chart(
        title="Rank",
        labels=["1", "2", "3"],
        series=[Series("Rank", [3, 1, 2])],
        invert=True,
        floor=1,
    )
    ys = numbers(chart.svg, "circle", "cy")
    assert ys[1] < ys[2] < ys[0]
    # rank 1 is a tick of the axis
    assert re.search(r">1</text>", str(chart.svg))


def test_bars_are_as_tall_as_their_values():
    chart = bar_chart(
        title="Wins", labels=["8", "9–11", "12–15"], series=[Series("Wins", [10, 5, 0])]
    )
    heights = numbers(chart.svg, "rect", "height")
    assert len(heights) == 3
    assert heights[0] == 2 * heights[1]
    assert heights[2] == 0
    assert "<title>9–11: 5</title>" in str(chart.svg)


def test_grouped_bars_have_a_legend_and_one_bar_per_series_and_label():
    chart = bar_chart(
        title="Per round",
        labels=["1", "2"],
        series=[Series("Drawn hands", [4, 0]), Series("False wins", [2, 1])],
    )
    svg = str(chart.svg)
    assert svg.count("<rect") == 4 + 2  # four bars and two legend keys
    assert ">Drawn hands</text>" in svg and ">False wins</text>" in svg


def test_crowded_axis_labels_take_two_lines():
    labels = ["8", "9–11", "12–15", "16–23", "24–31", "32–47", "48–63", "64–87", "88+"]
    chart = bar_chart(title="Values", labels=labels, series=[Series("Wins", [1] * 9)])
    label_ys = {
        float(y)
        for y, text in re.findall(
            r'<text x="[\d.]+" y="([\d.]+)" text-anchor="middle"[^>]*>([^<]+)<', str(chart.svg)
        )
        if text in labels
    }
    assert len(label_ys) == 2


def test_no_numbers_make_an_empty_chart():
    assert line_chart(title="Score", labels=[], series=[Series("S", [])]).empty
    assert bar_chart(title="Wins", labels=["1"], series=[Series("W", [None])]).empty


def axis_labels(svg) -> list[str]:
    return re.findall(r'text-anchor="end" fill="#3d474f">([^<]+)</text>', str(svg))


def test_a_chart_of_one_point_has_an_axis_from_zero_with_the_point_on_it():
    chart = line_chart(title="Score", labels=["1"], series=[Series("Score", [50])])

    assert axis_labels(chart.svg) == ["0", "20", "40", "60"]
    (x,) = numbers(chart.svg, "circle", "cx")
    assert 48 < x < 360 - 12  # inside the plot, not on its edge

    negative = line_chart(title="Score", labels=["1"], series=[Series("Score", [-36])])
    assert axis_labels(negative.svg)[0] == "−40" and axis_labels(negative.svg)[-1] == "0"


def test_a_rank_chart_of_one_point_has_two_ticks_from_rank_one():
    chart = line_chart(
        title="Rank", labels=["1"], series=[Series("Rank", [1])], invert=True, floor=1
    )

    assert axis_labels(chart.svg) == ["1", "2"]


def test_a_bar_chart_of_one_bar_starts_at_zero():
    chart = bar_chart(title="Wins", labels=["8"], series=[Series("Wins", [3])])

    assert axis_labels(chart.svg)[0] == "0"
    assert axis_labels(chart.svg)[-1] == "3"


def test_a_rank_chart_reaches_the_last_rank_of_the_field():
    chart = line_chart(
        title="Rank",
        labels=["1"],
        series=[Series("Rank", [2])],
        invert=True,
        floor=1,
        ceiling=8,
    )

    labels = axis_labels(chart.svg)
    assert labels[0] == "1" and int(labels[-1]) >= 8
