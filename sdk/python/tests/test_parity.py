"""The same skill call through REST, the Python SDK (sync and async), the JavaScript SDK and
``skillflow apps ... --json`` returns the same grouped body (ids and timestamps aside)."""

from __future__ import annotations

import asyncio
import json

import httpx
from conftest import Stack, normalise, run_node

from skillflow import AsyncClient, Client, models, to_dict

INPUT = {"requests": [{"id": "a", "query": "cedar", "tlds": ["com"]}, {"query": "lanternfish.net"}]}


def test_python_js_cli_and_rest_return_the_same_grouped_body(stack: Stack) -> None:
    rest = httpx.post(
        f"{stack.url}/v1/apps/hosting/skills/search_domains",
        json=INPUT,
        headers={"authorization": f"Bearer {stack.token}"},
        timeout=120,
    )
    assert rest.status_code == 200
    body = rest.json()
    assert sorted(body) == ["call_id", "previews", "results"]
    assert [g["id"] for g in body["results"]] == ["a", None]

    with Client(stack.url, stack.token) as client:
        py = client.apps.hosting.search_domains(INPUT)

    async def call_async() -> object:
        async with AsyncClient(stack.url, stack.token) as client:
            return await client.apps.hosting.search_domains(INPUT)

    py_async = asyncio.run(call_async())

    env = {"SKILLFLOW_URL": stack.url, "SKILLFLOW_API_KEY": stack.token}
    js = run_node(
        ["--import", "tsx", "test/helpers/js-sdk-call.ts", "hosting", "search_domains", json.dumps(INPUT)],
        env,
    )
    assert js.returncode == 0, js.stderr
    cli = run_node(
        ["bin/skillflow.js", "apps", "hosting", "search_domains", "--input", json.dumps(INPUT), "--json"], env
    )
    assert (cli.returncode, cli.stderr) == (0, "")

    assert isinstance(py, models.HostingSearchDomainsResult)
    assert isinstance(py_async, models.HostingSearchDomainsResult)
    expected = normalise(body)
    assert normalise(to_dict(py)) == expected
    assert normalise(to_dict(py_async)) == expected
    assert normalise(json.loads(js.stdout)) == expected
    assert normalise(json.loads(cli.stdout)) == expected
    # The typed model reads the same values.
    assert [g.id for g in py.results] == ["a", None]
    assert py.results[0].results and all(r.domain.endswith(".com") for r in py.results[0].results)
