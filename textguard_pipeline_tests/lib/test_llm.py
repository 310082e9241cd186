import pytest

from textguard_pipeline.core.llm import ChatClient, LLMConfig, LLMError, llm_config_from_env, parse_json_content


def test_chat_json_against_standin(fresh_standin):
    fresh_standin.script({"POST /v1/chat/completions": [fresh_standin.chat_reply('```json\n{"ok": 1}\n```')]})
    client = ChatClient(LLMConfig(base_url=f"{fresh_standin.base_url}/v1", model="m", api_key="k"))
    assert client.chat_json([{"role": "user", "content": "hi"}]) == {"ok": 1}
    (req,) = fresh_standin.requests()
    assert '"model": "m"' in req["body"] or '"model":"m"' in req["body"]


def test_retries_then_succeeds_on_503(fresh_standin):
    fresh_standin.script({"POST /v1/chat/completions": [{"status": 503, "json": {}}, fresh_standin.chat_reply("{}")]})
    client = ChatClient(LLMConfig(base_url=f"{fresh_standin.base_url}/v1", backoff_s=0.01))
    assert client.chat_json([{"role": "user", "content": "x"}]) == {}
    assert len(fresh_standin.requests()) == 2


def test_timeout_and_invalid_json(fresh_standin):
    fresh_standin.script({"POST /v1/chat/completions": [{"status": 200, "json": {}, "delay": 1.0}]})
    client = ChatClient(LLMConfig(base_url=f"{fresh_standin.base_url}/v1", timeout_s=0.2, max_retries=0))
    with pytest.raises(LLMError) as ei:
        client.chat("x" and [{"role": "user", "content": "x"}])
    assert ei.value.kind == "timeout"
    with pytest.raises(LLMError) as ei:
        parse_json_content("not json")
    assert ei.value.kind == "invalid_json"


def test_unreachable():
    client = ChatClient(LLMConfig(base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=1))
    with pytest.raises(LLMError) as ei:
        client.chat([{"role": "user", "content": "x"}])
    assert ei.value.kind == "unreachable"


def test_config_from_env():
    assert llm_config_from_env({}) is None
    cfg = llm_config_from_env(
        {"TEXTGUARD_LLM_URL": "http://h/v1/", "TEXTGUARD_LLM_MODEL": "x", "TEXTGUARD_LLM_API_KEY": "s"}
    )
    assert cfg.base_url == "http://h/v1" and cfg.model == "x" and cfg.api_key == "s"
