"""tinylm's attention: the article's hand-computed values, PyTorch as an oracle, gradients, shapes."""

import math
import re

import pytest
import torch

from tinylm import SelfAttention, attention, attention_steps

Q = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
V = torch.tensor([[1., 0.], [0., 2.], [1., 2.]])


def test_first_row_matches_the_hand_computation():
    output, scores, weights = attention(Q, Q, V)
    s = 1 / math.sqrt(2)
    assert torch.allclose(scores[0], torch.tensor([s, 0., s]))
    e = math.exp(s)
    expected = torch.tensor([e, 1., e]) / (2 * e + 1)
    assert torch.allclose(weights[0], expected)
    assert torch.allclose(output[0], expected @ V)


def test_each_row_of_proportions_sums_to_one_not_the_whole_matrix():
    _, _, weights = attention(Q, Q, V)
    assert torch.allclose(weights.sum(dim=-1), torch.ones(3))
    assert weights.sum().item() == pytest.approx(3.0)


def test_output_width_is_the_width_of_v_whatever_the_number_of_positions():
    x = torch.randn(10, 2)
    output, scores, _ = attention(x, x, torch.randn(10, 2))
    assert output.shape == (10, 2) and scores.shape == (10, 10)


@pytest.mark.parametrize("shape", [(5, 4), (3, 6, 4), (2, 3, 7, 8)])
def test_agrees_with_pytorch_scaled_dot_product_attention(shape):
    gen = torch.Generator().manual_seed(sum(shape))
    q, k, v = (torch.randn(*shape, generator=gen, dtype=torch.float64) for _ in range(3))
    output, _, weights = attention(q, k, v)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    assert torch.allclose(output, expected, atol=1e-12)
    assert torch.allclose(weights.sum(-1), torch.ones(shape[:-1], dtype=torch.float64))


def test_queries_and_keys_may_differ_in_count_and_values_in_width():
    q, k, v = torch.randn(2, 4), torch.randn(5, 4), torch.randn(5, 3)
    output, scores, _ = attention(q, k, v)
    assert output.shape == (2, 3) and scores.shape == (2, 5)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    assert torch.allclose(output, expected, atol=1e-6)


def test_gradients_reach_all_three_projections():
    torch.manual_seed(0)
    layer = SelfAttention(d_in=4, d_qk=3, d_v=2)
    output, _, _ = layer(torch.randn(2, 5, 4))
    output.square().sum().backward()
    for name in ("wq", "wk", "wv"):
        grad = getattr(layer, name).grad
        assert grad is not None and grad.abs().sum() > 0, name


def test_self_attention_projects_without_bias_exactly_as_written():
    layer = SelfAttention(d_in=2, d_qk=2)
    with torch.no_grad():
        layer.wq.copy_(torch.eye(2))
        layer.wk.copy_(torch.eye(2))
        layer.wv.copy_(torch.tensor([[1., 0.], [0., 2.]]))
    output, _, _ = layer(Q)
    assert torch.allclose(output, attention(Q, Q, V)[0])
    assert [n for n, _ in layer.named_parameters()] == ["wq", "wk", "wv"]


@pytest.mark.parametrize(
    "q, k, v, words",
    [
        (torch.randn(3, 2), torch.randn(3, 3), torch.randn(3, 2), "特征宽度"),
        (torch.randn(3, 2), torch.randn(3, 2), torch.randn(4, 2), "位置数"),
        (torch.randn(2, 3, 2), torch.randn(3, 3, 2), torch.randn(3, 3, 2), "批次"),
        (torch.randn(2), torch.randn(3, 2), torch.randn(3, 2), "至少要有两轴"),
    ],
)
def test_bad_shapes_raise_an_error_that_names_the_problem(q, k, v, words):
    with pytest.raises(ValueError, match=words):
        attention(q, k, v)


def test_self_attention_rejects_input_of_the_wrong_width():
    with pytest.raises(ValueError, match="特征宽度应为 4"):
        SelfAttention(d_in=4, d_qk=2)(torch.randn(3, 5))


def test_the_result_has_names_and_still_unpacks_in_the_old_order():
    result = attention(Q, Q, V)
    output, scores, weights = result
    assert result._fields == ("output", "scores", "weights")
    assert result.output is output and result.scores is scores and result.weights is weights


def test_the_function_labels_each_step_and_writes_shapes_symbolically():
    """Whatever a page says about it (that is the page's business, checked with its listings),
    each line of the function's body says what it does, and shapes are named, not sized."""
    import inspect

    source = inspect.getsource(attention)
    body = [line for line in source.split('"""')[-1].splitlines() if line.strip() and not line.strip().startswith("#")]
    steps = [line for line in body if "=" in line.split("#")[0] and not line.strip().startswith("check_shapes")]
    assert steps and all("#" in line and "：" in line.split("#", 1)[1] for line in steps), steps
    assert "[..., 查询位置, 被读位置]" in source
    assert not re.search(r"\[\d+\s*,\s*\d+\]", source)  # no sizes of the worked example


def test_attention_steps_gives_the_articles_hand_computation_of_the_first_row():
    steps = attention_steps(Q, Q, V)
    e = math.exp(1 / math.sqrt(2))
    assert torch.equal(steps.dots[0], torch.tensor([1., 0., 1.]))
    assert torch.allclose(steps.scores[0], torch.tensor([1., 0., 1.]) / math.sqrt(2))
    assert torch.allclose(steps.exps[0], torch.tensor([e, 1., e]))
    assert steps.sums[0].item() == pytest.approx(2 * e + 1)
    output, scores, weights = attention(Q, Q, V)
    assert torch.equal(steps.scores, scores) and torch.equal(steps.weights, weights)
    assert torch.equal(steps.output, output)
    assert torch.allclose(steps.exps / steps.sums.unsqueeze(-1), weights)


def test_attention_steps_refuses_scores_whose_exponentials_overflow():
    big = torch.tensor([[100., 0.], [0., 100.]])
    with pytest.raises(ValueError, match="溢出"):
        attention_steps(big, big, big)


def test_self_attention_with_the_articles_weights_gives_the_worked_example():
    layer = SelfAttention.from_weights(wq=torch.eye(2), wk=torch.eye(2), wv=torch.tensor([[1., 0.], [0., 2.]]))
    q, k, v = layer.project(Q)
    assert torch.equal(q, Q) and torch.equal(k, Q) and torch.equal(v, V)
    assert torch.equal(layer(Q).output, attention(Q, Q, V).output)
    assert [n for n, _ in layer.named_parameters()] == ["wq", "wk", "wv"]
    assert all(p.requires_grad for p in layer.parameters())
