"""tinylm's small language model: vocabulary, embedding, the two models, loss and a deterministic training run."""

import json
import os
import subprocess
import sys

import pytest
import torch

from tests.conftest import ROOT
from tinylm import (
    AttentionModel, Embedding, LastPositionModel, SelfAttention, Vocab, last_position_loss, next_char_examples,
    next_char_probs, train,
)

SENTENCES = ["早上，小丁喜欢红花。", "早上，小周喜欢黄花。"]


def test_vocab_numbers_each_character_once_in_unicode_order_whatever_the_sentence_order():
    vocab = Vocab("\n".join(SENTENCES))
    assert vocab.chars == sorted(set("".join(SENTENCES)))
    assert len(vocab) == len(set("".join(SENTENCES)))
    assert Vocab("\n".join(reversed(SENTENCES))).chars == vocab.chars
    ids = vocab.encode("小丁喜欢红")
    assert ids.dtype == torch.long and ids.shape == (5,)
    assert vocab.decode(ids) == "小丁喜欢红"


def test_vocab_names_the_characters_it_does_not_know():
    with pytest.raises(ValueError, match="绿"):
        Vocab("\n".join(SENTENCES)).encode("小丁喜欢绿")


def test_embedding_looks_up_one_row_per_id_and_keeps_leading_axes():
    torch.manual_seed(0)
    embed = Embedding(vocab_size=5, d_model=3)
    ids = torch.tensor([[4, 0, 4], [1, 2, 3]])
    out = embed(ids)
    assert out.shape == (2, 3, 3)
    assert torch.equal(out[0, 0], embed.table[4]) and torch.equal(out[0, 0], out[0, 2])
    out.sum().backward()
    assert torch.equal(embed.table.grad[4], torch.full((3,), 2.))  # id 4 was read twice
    assert torch.equal(embed.table.grad[0], torch.ones(3))


def test_next_char_examples_cut_each_sentence_into_context_and_next_character():
    vocab = Vocab("\n".join(SENTENCES))
    inputs, targets = next_char_examples(SENTENCES, vocab, context=7)
    assert inputs.shape == (6, 7) and targets.shape == (6,)  # 10 characters - 7 = 3 per sentence
    assert vocab.decode(inputs[0]) == "早上，小丁喜欢" and vocab.decode(targets[:1]) == "红"
    assert vocab.decode(inputs[2]) == "，小丁喜欢红花" and vocab.decode(targets[2:3]) == "。"
    assert vocab.decode(inputs[3]) == "早上，小周喜欢" and vocab.decode(targets[3:4]) == "黄"


@pytest.mark.parametrize("model_class", [LastPositionModel, AttentionModel])
def test_models_score_every_vocabulary_entry_at_every_position(model_class):
    torch.manual_seed(0)
    model = model_class(vocab_size=11, d_model=4)
    logits = model(torch.randint(0, 11, (3, 7)))
    assert logits.shape == (3, 7, 11)
    probs = next_char_probs(model, torch.randint(0, 11, (3, 7)))
    assert probs.shape == (3, 11) and not probs.requires_grad
    assert torch.allclose(probs.sum(-1), torch.ones(3))


def test_the_previous_lessons_model_cannot_see_anything_but_the_last_character():
    torch.manual_seed(0)
    model = LastPositionModel(vocab_size=11, d_model=4)
    a, b = torch.tensor([1, 2, 3, 4, 9]), torch.tensor([8, 7, 6, 5, 9])  # same last character
    assert torch.equal(model(a)[-1], model(b)[-1])  # whatever its parameters
    assert not torch.equal(model(a)[-1], model(torch.tensor([1, 2, 3, 4, 5]))[-1])


def test_the_attention_model_lets_an_earlier_character_change_the_last_prediction():
    torch.manual_seed(0)
    model = AttentionModel(vocab_size=11, d_model=4)
    assert isinstance(model.attn, SelfAttention)
    a, b = torch.tensor([1, 2, 3, 4, 9]), torch.tensor([1, 2, 7, 4, 9])  # differ at position 2 only
    assert not torch.allclose(model(a)[-1], model(b)[-1])
    names = [n for n, _ in model.named_parameters()]
    assert names == ["embed.table", "head.weight", "head.bias", "attn.wq", "attn.wk", "attn.wv"]


def test_loss_is_cross_entropy_of_the_last_position_only():
    torch.manual_seed(0)
    model = AttentionModel(vocab_size=11, d_model=4)
    inputs, targets = torch.randint(0, 11, (5, 6)), torch.randint(0, 11, (5,))
    last = torch.log_softmax(model(inputs)[:, -1, :], dim=-1)
    expected = -last[torch.arange(5), targets].mean()
    assert torch.allclose(last_position_loss(model, inputs, targets), expected)


def short_run(steps=30):
    vocab = Vocab("\n".join(SENTENCES))
    inputs, targets = next_char_examples(SENTENCES, vocab, context=7)
    torch.manual_seed(3)
    model = AttentionModel(len(vocab), d_model=8).double()
    return model, train(model, inputs, targets, steps=steps, lr=0.02)


def test_a_short_training_run_lowers_the_loss_and_repeats_exactly():
    _, losses = short_run()
    _, again = short_run()
    assert len(losses) == 30 and losses == again  # bit for bit: no sampling, fixed seed
    assert losses[-1] < losses[0] / 2


def test_training_gives_the_same_numbers_with_one_or_two_threads():
    code = (
        "import json, sys, torch; torch.set_num_threads(int(sys.argv[1]))\n"
        "from tests.test_model import short_run\n"
        "model, losses = short_run(60)\n"
        "print('RESULT', json.dumps([losses, [p.tolist() for p in model.parameters()]]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    results = []
    for threads in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code, threads], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        line = next(li for li in out.stdout.splitlines() if li.startswith("RESULT "))
        results.append(json.loads(line.removeprefix("RESULT ")))
    (losses_one, params_one), (losses_two, params_two) = results
    assert losses_one == pytest.approx(losses_two, abs=1e-12)
    for a, b in zip(params_one, params_two):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=1e-9)  # far below the 4 decimals shown
