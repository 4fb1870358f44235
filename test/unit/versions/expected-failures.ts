/**
 * Vectors this library deliberately does not pass, grouped by reason. Each reason says why the
 * library's answer is the native tool's. The conformance test fails if any of these starts passing
 * (remove it here) or if any vector not listed fails.
 */
export const EXPECTED_FAILURES: readonly { readonly reason: string; readonly ids: readonly string[] }[] = [
  {
    reason:
      "x/mod/semver rejects numeric prerelease identifiers with leading zeros (`006`, `011`, `01`), so the go command treats these as invalid (sorted first); deps.dev accepts them",
    ids: [
      "compare GO \"v1.0.0-rc.12\" \"v1.0.0-rc.011\"",
      "compare GO \"v0.0.1-alpha.006\" \"v0.0.1-alpha.6\"",
    ],
  },
  {
    reason:
      "Maven 3.x ComparableVersion reads `1-ga-1` as [1,[[1]]] (the null `ga` is dropped) which sorts below `1-1` = [1,[1]]; equality only holds under Maven 4's CombinationItem rules",
    ids: [
      "compare MAVEN \"1-ga-1\" \"1-1\"",
      "maven-versions.txt:100 MAVEN 1-1 = 1-ga-1",
    ],
  },
  {
    reason:
      "NuGet's VersionComparer compares numeric labels with Int32.TryParse (`006` == 6, `011` == 11); deps.dev compares them as strings",
    ids: [
      "compare NUGET \"1.0.0-rc.12\" \"1.0.0-rc.011\"",
      "compare NUGET \"0.0.1-alpha.006\" \"0.0.1-alpha.6\"",
    ],
  },
  {
    reason:
      "pypa/packaging: a clause naming a prerelease (`>2.3.3.dev1`, `>2.0.0-rc.1`, `>2.3.4.dev1`) admits prereleases, and `>` only excludes post/local releases of the same base; deps.dev disables prereleases for `>X` with a prerelease X (README: known divergence)",
    ids: [
      "match PYPI match \">2.0.0-rc.1\" u49",
      "match PYPI match \">2.3.4.dev1\" u11",
      "match PYPI match \">2.3.3.dev1\" u11",
    ],
  },
  {
    reason:
      "The semver crate rejects a number after a wildcard (`1.*.3`); deps.dev reads it as `1.*`",
    ids: [
      "match CARGO match \"1.*.3\" u49",
      "match CARGO match \"1.x.3\" u49",
    ],
  },
  {
    reason:
      "node-semver 7 rejects `1.*.3` / `1.x.3` (validRange -> null); deps.dev reads it as `1.*` (README: known divergence)",
    ids: [
      "match NPM match \"1.*.3\" u49",
      "match NPM match \"1.x.3\" u49",
    ],
  },
  {
    reason:
      "pypa/packaging: `<V` (V final) never matches prereleases of V itself (`<0.5.0` excludes 0.5.0rc1, `<2.0.0` excludes 2.0.0rc*), even when prereleases are allowed; deps.dev's interval logic includes them",
    ids: [
      "match PYPI match \">=2.0.0-rc <2.0.0\" u49",
      "match PYPI match_prerelease \"<0.5.0\" u49",
    ],
  },
  {
    reason:
      "pypa/packaging matches `+local` candidates against public-version specifiers (`==2.3.4`, `>=`, `!=`, `.*`, empty); deps.dev never does (README: known divergence)",
    ids: [
      "match PYPI match \">=2.3.3\" u11",
      "match PYPI match \"==2.3.4\" u11",
      "match PYPI match \">=2.3.4-rc.1\" u11",
      "match PYPI match \">=2.3.4.dev1\" u11",
      "match PYPI match \">=2.3.4\" u11",
      "match PYPI match \"==2.3.*\" u11",
      "match PYPI match \"\" u11",
      "match PYPI match \"!=1.2.3\" u11",
      "match PYPI match \"!=1.2.*\" u11",
      "match PYPI match \"!=1.*\" u11",
    ],
  },
  {
    reason:
      "Wildcard patterns are not versions: canon() returns null for them (deps.dev's Canon also prints version patterns)",
    ids: [
      "canon NPM \"*\"",
      "canon NPM \"1.*\"",
      "canon NPM \"1.0.*\"",
      "canon NPM \"1.*-alpha\"",
      "canon NPM \"1.*.0-alpha\"",
      "canon NPM \"1.*.0-alpha.1\"",
      "canon NPM \"1.0.x+build.01\"",
      "canon NPM \"1.0.X+build.01\"",
      "canon NPM \"vvv6.x.0-beta1\"",
      "canon CARGO \"*\"",
      "canon CARGO \"1.*\"",
      "canon CARGO \"1.0.*\"",
      "canon CARGO \"1.*-alpha\"",
      "canon CARGO \"1.*.0-alpha\"",
      "canon CARGO \"1.*.0-alpha.1\"",
      "canon CARGO \"1.0.x+build.01\"",
      "canon CARGO \"1.0.X+build.01\"",
      "canon NUGET \"*\"",
      "canon NUGET \"1.*\"",
      "canon NUGET \"1.0.*\"",
      "canon NUGET \"1.*-alpha\"",
    ],
  },
  {
    reason:
      "node-semver accepts this range (`||` and empty alternatives mean `*`; `0.3.0 - 0` is `>=0.3.0 <1.0.0-0`, which matches nothing); deps.dev rejects it",
    ids: [
      "constraint_error NPM \"0.3.0 - 0\"",
      "constraint_error NPM \"||\"",
      "constraint_error NPM \"|| ||\"",
      "constraint_error NPM \"1.0||\"",
    ],
  },
  {
    reason:
      "Maven's VersionRange.createFromVersionSpec accepts adjacent restrictions without a comma (`[1.0][2.0]` = {1.0, 2.0}); deps.dev rejects it",
    ids: [
      "constraint_error MAVEN \"[1.0][2.0]\"",
    ],
  },
  {
    reason:
      "NuGet version parts are Int32 (System.Version); 20181231235959 overflows, so NuGet rejects the version; deps.dev accepts int64",
    ids: [
      "parse NUGET \"1.2.20181231235959\"",
    ],
  },
  {
    reason:
      "packaging's version numbers are arbitrary-precision (Python int), so pip accepts these; deps.dev limits numbers to int64",
    ids: [
      "parse PYPI \"1.2.9223372036854775807\"",
      "parse PYPI \"1.2.9223372036854775808\"",
      "parse PYPI \"1.2.18446744073709551615\"",
      "parse PYPI \"1.2.18446744073709551616\"",
    ],
  },
  {
    reason:
      "the semver crate Cargo uses reads numbers as u64, so cargo accepts these (and rejects 18446744073709551616, as here); deps.dev limits numbers to int64",
    ids: [
      "parse CARGO \"1.2.9223372036854775807\"",
      "parse CARGO \"1.2.9223372036854775808\"",
      "parse CARGO \"1.2.18446744073709551615\"",
    ],
  },
  {
    reason:
      "Gem::Version segments are arbitrary-precision Integers, so RubyGems accepts these; deps.dev limits numbers to int64",
    ids: [
      "parse RUBYGEMS \"1.2.9223372036854775807\"",
      "parse RUBYGEMS \"1.2.9223372036854775808\"",
      "parse RUBYGEMS \"1.2.18446744073709551615\"",
      "parse RUBYGEMS \"1.2.18446744073709551616\"",
    ],
  },
  {
    reason:
      "A prerelease after a wildcard (`1.*-alpha`, `1.x.3-alpha`) is rejected by the native parser (node-semver validRange -> null, semver crate error, PEP 440 has no such form); deps.dev ignores the tail",
    ids: [
      "parse CARGO \"1.*-alpha\"",
      "parse NPM \"1.*-alpha\"",
      "parse CARGO \"1.*.3-alpha\"",
      "parse NPM \"1.*.3-alpha\"",
      "parse CARGO \"1.x.3-alpha\"",
      "parse NPM \"1.x.3-alpha\"",
      "parse CARGO \"1.*.3-alpha.1\"",
      "parse NPM \"1.*.3-alpha.1\"",
      "parse PYPI \"1.*-alpha\"",
      "parse PYPI \"1.*.3-alpha\"",
      "parse PYPI \"1.*.3-alpha.1\"",
    ],
  },
  {
    reason:
      "These node-semver fixtures pass `loose: true`; this library follows node-semver's default strict mode (what `semver.valid`/`satisfies` answer without options), which rejects `=1.2.3`, `v 1.2.3` and `1.2.3pre` (tools/conformance-native.ts)",
    ids: [
      "equality.js#1 1.2.3 == =1.2.3",
      "equality.js#2 1.2.3 == v 1.2.3",
      "equality.js#3 1.2.3 == = 1.2.3",
      "equality.js#5 1.2.3 ==  =1.2.3",
      "equality.js#6 1.2.3 ==  v 1.2.3",
      "equality.js#7 1.2.3 ==  = 1.2.3",
      "equality.js#9 1.2.3-0 == =1.2.3-0",
      "equality.js#10 1.2.3-0 == v 1.2.3-0",
      "equality.js#11 1.2.3-0 == = 1.2.3-0",
      "equality.js#13 1.2.3-0 ==  =1.2.3-0",
      "equality.js#14 1.2.3-0 ==  v 1.2.3-0",
      "equality.js#15 1.2.3-0 ==  = 1.2.3-0",
      "equality.js#17 1.2.3-1 == =1.2.3-1",
      "equality.js#18 1.2.3-1 == v 1.2.3-1",
      "equality.js#19 1.2.3-1 == = 1.2.3-1",
      "equality.js#21 1.2.3-1 ==  =1.2.3-1",
      "equality.js#22 1.2.3-1 ==  v 1.2.3-1",
      "equality.js#23 1.2.3-1 ==  = 1.2.3-1",
      "equality.js#25 1.2.3-beta == =1.2.3-beta",
      "equality.js#26 1.2.3-beta == v 1.2.3-beta",
      "equality.js#27 1.2.3-beta == = 1.2.3-beta",
      "equality.js#29 1.2.3-beta ==  =1.2.3-beta",
      "equality.js#30 1.2.3-beta ==  v 1.2.3-beta",
      "equality.js#31 1.2.3-beta ==  = 1.2.3-beta",
      "equality.js#32 1.2.3-beta+build ==  = 1.2.3-beta+otherbuild",
      "equality.js#33 1.2.3+build ==  = 1.2.3+otherbuild",
      "range-include.js#4 \"1.2.3pre+asdf - 2.4.3-pre+asdf\" \"1.2.3\"",
      "range-include.js#5 \"1.2.3-pre+asdf - 2.4.3pre+asdf\" \"1.2.3\"",
      "range-include.js#6 \"1.2.3pre+asdf - 2.4.3pre+asdf\" \"1.2.3\"",
      "range-include.js#67 \"~ 1.0.3alpha\" \"1.0.12\"",
    ],
  },
  {
    reason:
      "The native parser strips surrounding whitespace (node-semver trims; Gem::Version strips); deps.dev rejects it",
    ids: [
      "parse NPM \"1.0.0 \"",
      "parse RUBYGEMS \"1.0.0 \"",
    ],
  },
  {
    reason:
      "x/mod/semver rejects numeric prerelease identifiers with leading zeros (`beta.01`)",
    ids: [
      "parse GO \"v1.2.3-beta.01\"",
    ],
  },
  {
    reason:
      "The semver crate (Cargo) has no `v` prefix: `v1.2.3` is invalid and sorts before every valid version; these OSV lines are for npm-style parsers",
    ids: [
      "semver-versions.txt:18 CARGO v0.0.0 > 0.0.0-foo",
      "semver-versions.txt:19 CARGO v0.0.1 > 0.0.0",
      "semver-versions.txt:20 CARGO v1.0.0 > 0.9.9",
      "semver-versions.txt:21 CARGO v0.10.0 > 0.9.0",
      "semver-versions.txt:22 CARGO v0.99.0 > 0.10.0",
      "semver-versions.txt:23 CARGO v2.0.0 > 1.2.3",
      "semver-versions.txt:50 CARGO 0.0.0-foo < v0.0.0",
      "semver-versions.txt:51 CARGO 0.0.0 < v0.0.1",
      "semver-versions.txt:52 CARGO 0.9.9 < v1.0.0",
      "semver-versions.txt:53 CARGO 0.9.0 < v0.10.0",
      "semver-versions.txt:54 CARGO 0.10.0 < v0.99.0",
      "semver-versions.txt:55 CARGO 1.2.3 < v2.0.0",
      "semver-versions.txt:76 CARGO 1.2.3 = v1.2.3",
      "semver-versions.txt:78 CARGO 1.2.3-0 = v1.2.3-0",
      "semver-versions.txt:80 CARGO 1.2.3-1 = v1.2.3-1",
      "semver-versions.txt:82 CARGO 1.2.3-beta = v1.2.3-beta",
      "semver-versions.txt:86 CARGO v1.2.3+build = 1.2.3+otherbuild",
    ],
  },
];
