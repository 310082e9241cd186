"""The one redaction rule (lib/redact.py)."""

from textguard_pipeline.lib.http import HttpClient, HttpConfig, HttpError, HttpResponse
from textguard_pipeline.lib.redact import redact, redact_url, register_secret


def test_a_password_in_a_url_is_masked_and_the_user_kept():
    assert (
        redact("POST http://user:pa55word@host:8080/v1 answered 500")
        == "POST http://user:***@host:8080/v1 answered 500"
    )


def test_a_lone_token_as_user_name_is_masked_whole():
    assert redact_url("https://ghp_abcdef123@gateway.example/v1") == "https://***@gateway.example/v1"


def test_credential_parameters_and_bearer_tokens_are_masked():
    assert redact("GET https://h/x?q=1&api_key=abc123&lang=en") == "GET https://h/x?q=1&api_key=***&lang=en"
    assert redact("Authorization: Bearer sk-abcdef") == "Authorization: Bearer ***"


def test_a_registered_secret_is_masked_wherever_it_appears():
    register_secret("sk-registered-0042")
    assert redact('{"error": "bad key sk-registered-0042"}') == '{"error": "bad key ***"}'


def test_text_without_credentials_is_unchanged():
    text = "see https://example.org/a@b and mail me at a@b.org: key figures"
    assert redact(text) == text


def test_http_errors_and_cache_entries_never_hold_the_password(tmp_path):
    client = HttpClient(HttpConfig(max_retries=0, timeout_s=0.5, cache_dir=str(tmp_path)))
    url = "http://user:pw-cache-77@127.0.0.1:9/v1/chat/completions"
    try:
        client.request("POST", url, json={"a": 1})
    except HttpError as exc:
        assert "pw-cache-77" not in str(exc) and "user:***@127.0.0.1" in str(exc)
    client.store("POST", url, HttpResponse(200, "{}"), json={"a": 1})
    (entry,) = list(tmp_path.rglob("*.json"))
    assert "pw-cache-77" not in entry.read_text() and client.cached("POST", url, json={"a": 1}) is not None
