"""The step-through demo and the live exercises, in a real browser, against tinylm's own numbers."""

from __future__ import annotations

import re

import pytest

from coursekit.demo import golden_cases, steps
from lessons.show import num as shown
from lessons.l10.attention_2d import k, q, v

pytestmark = pytest.mark.browser
STAGES = ["点积", "缩放 ÷√d", "Softmax", "汇总"]
LIVE = steps(q, k, v)
NUMBER = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?")


@pytest.fixture
def lesson(lesson_page):
    lesson_page.locator("summary", has_text="展开观看动态过程").click()
    return lesson_page


def expected_lines(i: int, s: int) -> list[list[float]]:
    """The numbers each written step shows, in order, from tinylm."""
    L, n = LIVE, range(len(LIVE["k"]))
    if s == 0:
        return [[x for c in range(L["d"]) for x in (L["q"][i][c], L["k"][j][c])] + [L["dots"][i][j]] for j in n]
    if s == 1:
        return [[L["dots"][i][j], L["d"] ** 0.5, L["scores"][i][j]] for j in n]
    if s == 2:
        return ([[L["scores"][i][j], L["exps"][i][j]] for j in n] + [L["exps"][i] + [L["sums"][i]]]
                + [[L["exps"][i][j], L["sums"][i], L["weights"][i][j]] for j in n])
    return [[c] + [x for r in n for x in (L["weights"][i][r], L["v"][r][c])] + [L["output"][i][c]]
            for c in range(len(L["v"][0]))]


def made(i: int, s: int) -> list[float]:
    return [LIVE["dots"], LIVE["scores"], LIVE["weights"], LIVE["output"]][s][i]


def check_stage(page, i: int, s: int) -> None:
    demo = page.locator(".tl-demo")
    assert demo.locator(".tl-demo-status").inner_text() == f"查询行 {i} · 第 {s + 1}/4 步：{STAGES[s]}"
    # the row of numbers this step produces, identical to tinylm's to the article's precision
    cells = demo.locator("tr.is-made td")
    assert cells.all_inner_texts() == [shown(x) for x in made(i, s)]
    for cell, x in zip(cells.all(), made(i, s)):
        assert abs(float(cell.get_attribute("data-value")) - x) < 1e-12
    # what the step uses is highlighted: q row and K rows, then the previous row, then V rows
    q_rows = demo.locator("table", has=page.locator("caption", has_text=re.compile("^Q$"))).locator("tr")
    v_rows = demo.locator("table", has=page.locator("caption", has_text=re.compile("^V$"))).locator("tr")
    assert [("is-used" in (r.get_attribute("class") or "")) for r in q_rows.all()] == [s < 2 and r == i for r in range(3)]
    assert all(("is-used" in (r.get_attribute("class") or "")) == (s == 3) for r in v_rows.all())
    if s > 0:
        assert demo.locator("tr.is-used td").all_inner_texts()[-3:] == [shown(x) for x in made(i, s - 1)]
    # the written arithmetic of this step, number by number
    lines = demo.locator(".tl-demo-math li").all_inner_texts()
    want = expected_lines(i, s)
    assert len(lines) == len(want)
    for line, numbers in zip(lines, want):
        assert NUMBER.findall(line)[-len(numbers):] == [shown(x) for x in numbers], line


def test_next_steps_through_every_stage_of_every_query_row(lesson):
    nxt = lesson.get_by_role("button", name="下一步 ▶")
    for i in range(3):
        for s in range(4):
            check_stage(lesson, i, s)
            if (i, s) != (2, 3):
                nxt.click()
    assert nxt.is_disabled()


def test_row_and_stage_buttons_jump_and_arrow_keys_step(lesson):
    lesson.get_by_role("button", name="查询行 2").click()
    lesson.get_by_role("button", name="3. Softmax").click()
    check_stage(lesson, 2, 2)
    assert lesson.get_by_role("button", name="3. Softmax").get_attribute("aria-current") == "step"
    assert lesson.get_by_role("button", name="查询行 2").get_attribute("aria-pressed") == "true"
    lesson.keyboard.press("ArrowRight")
    check_stage(lesson, 2, 3)
    lesson.keyboard.press("ArrowLeft")
    lesson.keyboard.press("ArrowLeft")
    check_stage(lesson, 2, 1)


def test_the_first_rows_steps_are_the_articles_own_arithmetic(lesson):
    article = lesson.locator("article").inner_text()
    lesson.get_by_role("button", name="1. 点积").click()
    for line in lesson.locator(".tl-demo-math li").all_inner_texts():
        assert line in article  # "q₀·k₀ = 1×1 + 0×0 = 1"
    lesson.get_by_role("button", name="4. 汇总").click()
    for line in lesson.locator(".tl-demo-math li").all_inner_texts():
        assert line.split("：")[1] in article  # "0.4011×1 + 0.1978×0 + 0.4011×1 ≈ 0.8022"


def test_focus_is_visible_and_the_stage_is_announced(lesson):
    status = lesson.locator(".tl-demo-status")
    assert status.get_attribute("aria-live") == "polite"
    lesson.get_by_role("button", name="查询行 0").focus()
    lesson.keyboard.press("Tab")
    focused = lesson.evaluate("document.activeElement.textContent")
    assert focused == "查询行 1"
    outline = lesson.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


def test_exercise_inputs_recompute_exactly_as_tinylm_does(lesson):
    """The article's example, both exercises and random edits, against tinylm's golden answers."""
    ex = lesson.locator(".tl-exercise")
    ex.scroll_into_view_if_needed()  # the exercise is set up when a reader scrolls to it
    for case in golden_cases(q, k, v):
        for c in range(2):
            ex.get_by_label(f"q₀ 第 {c} 坐标").fill(repr(case["q0"][c]))
            ex.get_by_label(f"V 第三行 第 {c} 坐标").fill(repr(case["v2"][c]))
        for name in ("weights", "output"):
            cells = ex.locator(f'table[data-result="{name}"] td')
            got = [float(x) for x in cells.evaluate_all("tds => tds.map(td => td.dataset.value)")]
            want = [x for row in case[name] for x in row]
            assert len(got) == len(want), (case["name"], name)
            assert all(abs(a - b) <= 1e-6 for a, b in zip(got, want)), (case["name"], name, got, want)


def test_demo_is_built_only_when_opened_and_its_styles_load_with_it(browser, base_url):
    page = browser.new_page()
    page.goto(f"{base_url}/lessons/10-attention/", wait_until="networkidle")
    assert page.locator(".tl-demo button").count() == 0
    assert page.locator('link[href$="attention-demo.css"]').count() == 0
    page.locator("summary", has_text="展开观看动态过程").click()
    page.locator(".tl-demo button").nth(8).wait_for()  # built on the details' toggle event
    assert page.locator(".tl-demo button").count() == 9
    assert page.locator('link[href$="attention-demo.css"]').count() == 1
    page.close()


def test_exercise_answers_show_in_the_page_and_reset_restores_the_example(lesson):
    ex = lesson.locator(".tl-exercise")
    ex.scroll_into_view_if_needed()
    ex.get_by_label("V 第三行 第 0 坐标").fill("3")
    change = ex.locator('table[data-result="change"] td').all_inner_texts()
    assert change[2] == shown(2 * LIVE["weights"][1][2])  # exercise 1: position 1, coordinate 0
    ex.get_by_role("button", name="恢复原例").click()
    assert ex.locator('table[data-result="output"] td').all_inner_texts() == [shown(x) for r in LIVE["output"] for x in r]


def test_demo_starts_after_materials_instant_navigation(browser, tmp_path):
    from coursekit.harness import free_port, serve
    from tests.conftest import ROOT, mkdocs_build

    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    result = mkdocs_build(ROOT, tmp_path / "site", SITE_URL=url)
    assert result.returncode == 0, result.stderr
    with serve(tmp_path / "site", port):
        page = browser.new_page()
        page.goto(url)
        page.evaluate("window.__sameDocument = true")
        page.locator("article a[href$='lessons/10-attention/']").click()
        page.wait_for_url("**/lessons/10-attention/")
        page.locator("summary", has_text="展开观看动态过程").click()
        assert page.evaluate("window.__sameDocument") is True  # no full page load happened
        page.get_by_role("button", name="下一步 ▶").click()
        assert page.locator(".tl-demo-status").inner_text() == "查询行 0 · 第 2/4 步：缩放 ÷√d"
        page.locator(".tl-exercise").scroll_into_view_if_needed()
        page.locator('.tl-exercise table[data-result="output"] td').nth(5).wait_for()
        assert page.locator('.tl-exercise table[data-result="output"] td').count() == 6
        page.close()
