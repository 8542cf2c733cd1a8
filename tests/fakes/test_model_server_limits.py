"""The loopback model server as GitHub Models' free tier: its token, input limit and 429s,
read through the real ``openai`` client."""

from __future__ import annotations

import openai
import pytest

from depbot.fakes.model_server import ModelServer, prompt_size, rate_limited, too_large

HELLO = [{"role": "user", "content": "hello"}]


def client(url: str, key: str = "ghs_right") -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key=key, max_retries=0, timeout=2.0)


def test_the_server_takes_only_its_token_and_counts_every_prompt():
    with ModelServer(lambda body: {"content": "hi"}, token="ghs_right") as srv:
        ok = client(srv.github_models_url).chat.completions.create(model="a/b", messages=HELLO)
        with pytest.raises(openai.AuthenticationError) as err:
            client(srv.github_models_url, "ghs_wrong").chat.completions.create(
                model="a/b", messages=HELLO
            )
    assert ok.choices[0].message.content == "hi"
    assert err.value.code == "unauthorized"
    assert srv.prompt_sizes == [prompt_size(srv.requests[0])] == [ok.usage.prompt_tokens]


def test_a_request_over_the_limit_gets_413_tokens_limit_reached():
    with ModelServer(lambda body: {"content": "hi"}, max_input_tokens=10) as srv:
        with pytest.raises(openai.APIStatusError) as err:
            client(srv.base_url).chat.completions.create(
                model="openai/gpt-4.1-mini", messages=[{"role": "user", "content": "x" * 100}]
            )
    assert err.value.status_code == 413 and err.value.code == "tokens_limit_reached"
    assert "Max size: 10 tokens" in err.value.message
    assert too_large("m", 5).status == 413


def test_a_rate_limit_carries_github_headers():
    with ModelServer(lambda body: rate_limited(3600, kind="UserByModelByDay")) as srv:
        with pytest.raises(openai.RateLimitError) as err:
            client(srv.base_url).chat.completions.create(model="a/b", messages=HELLO)
    headers = err.value.response.headers
    assert headers["retry-after"] == "3600"
    assert headers["x-ratelimit-type"] == "UserByModelByDay"
    assert err.value.code == "RateLimitReached"
