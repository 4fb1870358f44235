"""Drives two third-party deps.dev clients against a base URL, unchanged but for the base URL:
pydepsdev 0.2.2 (async, aiohttp; calls everything under /v3alpha; its base URL is the module constant
pydepsdev.api.BASE_URL) and depsdev 0.0.5 (async, httpx; DepsDevClientV3 and DepsDevClientV3Alpha).

Usage: python depsdev_clients.py <base url>
Prints one JSON line per call: {"op", "ok", "detail"} (detail: a few fields of the answer or the error);
exits 1 if any call failed. Covers every method of both clients whose deps.dev method the service serves
(the v3 surface, VersionBatch, PurlLookup, PurlLookupBatch, ProjectBatch, QueryContainerImages,
GetDependents, GetSimilarlyNamedPackages); GetCapabilities and the findings are not called.
"""
import asyncio
import json
import sys

import pydepsdev.api as pyapi
from depsdev.v3 import DepsDevClientV3, System
from depsdev.v3alpha import DepsDevClientV3Alpha

base = sys.argv[1]
pyapi.BASE_URL = f"{base}/v3alpha"
failed = False

NPM = ("npm", "lodash", "4.17.21")
LEAF = ("npm", "@colors/colors", "1.5.0")
ADVISORY = "GHSA-29mw-wpgm-hmr9"
PROJECT = "github.com/lodash/lodash"
CHAIN = "sha256:" + "0" * 64


def summary(value):
    if isinstance(value, dict):
        for k in ("versionKey", "packageKey", "advisoryKey", "projectKey"):
            if k in value:
                return {k: value[k]}
        return sorted(value.keys())
    if isinstance(value, list):
        return f"{len(value)} items"
    return str(value)[:80]


async def op(name, coro):
    global failed
    try:
        value = await coro
        print(json.dumps({"op": name, "ok": True, "detail": summary(value)}), flush=True)
        return value
    except Exception as e:  # noqa: BLE001 - every failure is reported
        failed = True
        print(json.dumps({"op": name, "ok": False, "detail": f"{type(e).__name__}: {str(e)[:300]}"}), flush=True)


async def main():
    async with pyapi.DepsdevAPI() as p:
        await op("pydepsdev.get_package", p.get_package(*NPM[:2]))
        await op("pydepsdev.get_version", p.get_version(*NPM))
        await op("pydepsdev.get_requirements", p.get_requirements(*NPM))
        await op("pydepsdev.get_dependencies", p.get_dependencies(*LEAF))
        await op("pydepsdev.get_project", p.get_project(PROJECT))
        await op("pydepsdev.get_project_package_versions", p.get_project_package_versions(PROJECT))
        await op("pydepsdev.get_advisory", p.get_advisory(ADVISORY))
        await op("pydepsdev.query_package_versions", p.query_package_versions(version_system="NPM", version_name="lodash", version="4.17.21"))
        await op("pydepsdev.get_version_batch", p.get_version_batch([("NPM", "lodash", "4.17.21"), ("NPM", "lodash", "0.0.0")]))
        await op("pydepsdev.get_all_versions_batch", p.get_all_versions_batch([("NPM", "lodash", "4.17.21")]))
        await op("pydepsdev.get_purl_lookup", p.get_purl_lookup("pkg:npm/lodash@4.17.21"))
        await op("pydepsdev.get_purl_lookup_batch", p.get_purl_lookup_batch(["pkg:npm/lodash@4.17.21"]))
        await op("pydepsdev.get_all_purl_lookup_batch", p.get_all_purl_lookup_batch(["pkg:npm/lodash@4.17.21"] * 1001))
        await op("pydepsdev.get_project_batch", p.get_project_batch([PROJECT]))
        await op("pydepsdev.get_all_projects_batch", p.get_all_projects_batch([PROJECT] * 1001))
        await op("pydepsdev.query_container_images", p.query_container_images(CHAIN))
        await op("pydepsdev.get_dependents", p.get_dependents(*NPM))
        await op("pydepsdev.get_similarly_named_packages", p.get_similarly_named_packages(*NPM[:2]))
    for cls in (DepsDevClientV3, DepsDevClientV3Alpha):
        c = cls(base_url=base, timeout=30.0)
        n = cls.__name__
        await op(f"{n}.get_package", c.get_package("npm", "lodash"))
        await op(f"{n}.get_version", c.get_version(*NPM))
        await op(f"{n}.get_requirements", c.get_requirements(*NPM))
        await op(f"{n}.get_dependencies", c.get_dependencies(*LEAF))
        await op(f"{n}.get_project", c.get_project(PROJECT))
        await op(f"{n}.get_project_package_versions", c.get_project_package_versions(PROJECT))
        await op(f"{n}.get_advisory", c.get_advisory(ADVISORY))
        await op(f"{n}.query", c.query(system=System.NPM, name="lodash", version="4.17.21"))
        if cls is DepsDevClientV3Alpha:
            await op(f"{n}.get_version_batch", c.get_version_batch([{"system": "NPM", "name": "lodash", "version": "4.17.21"}]))
            await op(f"{n}.purl_lookup", c.purl_lookup("pkg:npm/lodash@4.17.21"))
            await op(f"{n}.purl_lookup_batch", c.purl_lookup_batch(["pkg:npm/lodash@4.17.21"]))
            await op(f"{n}.get_project_batch", c.get_project_batch([PROJECT]))
            await op(f"{n}.query_container_images", c.query_container_images(CHAIN))
            await op(f"{n}.get_dependents", c.get_dependents(*NPM))
            await op(f"{n}.get_similarly_named_packages", c.get_similarly_named_packages("npm", "lodash"))


asyncio.run(main())
sys.exit(1 if failed else 0)
