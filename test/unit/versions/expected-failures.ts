/**
 * Vectors this library deliberately does not pass, grouped by reason. Each reason says why the
 * library's answer is the native tool's. The conformance test fails if any of these starts passing
 * (remove it here) or if any vector not listed fails.
 */
export const EXPECTED_FAILURES: readonly { readonly reason: string; readonly ids: readonly string[] }[] = [
  {
    reason:
      'pypa/packaging 26 (which `npm run conformance:native` asks) rejects a clause holding several whitespace-separated specifiers (`>=2.0.0 <3.0.0`); deps.dev reads it as two clauses',
    ids: ['match PYPI match ">=2.0.0 <3.0.0" u49', 'match PYPI match "==2.1.0 ==2.1.0" u49'],
  },
  {
    reason:
      'RubyGems 3.3 (Debian\'s ruby, which `npm run conformance:native` asks): Gem::Version reads the empty version as "0" and Gem::Requirement rejects a whitespace-only requirement; deps.dev rejects the first and reads the second as `>= 0`',
    ids: ['match RUBYGEMS match " " u49', 'match RUBYGEMS match " " u13', 'parse RUBYGEMS ""'],
  },
  {
    reason:
      'maven-artifact 3.8.7 (the installed Maven, which `npm run conformance:native` asks and the Maven graph tests compare with) applies MNG-7644: a qualifier after other items opens its own list (`1.foo` == `1-foo`, `6.1.12.rc5` > `6.1.12rc1`); these lines were generated with the earlier class. Its VersionRange accepts the empty spec (a range matching nothing) and `)` (a soft requirement); deps.dev rejects both',
    ids: [
      'compare MAVEN "1.foo" "1-foo"',
      'constraint_error MAVEN ""',
      'constraint_error MAVEN ")"',
      'maven-versions-generated.txt:2781 MAVEN 1.0.0-RC16 < 1.0.0.RC8-beta',
      'maven-versions-generated.txt:2786 MAVEN 1.0.0-gradle-rework-beta3 < 1.0.0.RC7-3',
      'maven-versions-generated.txt:5776 MAVEN 2.9.0-1 < 2.9.0.RC1',
      'maven-versions-generated.txt:9949 MAVEN 6.1.12.rc5 < 6.1.12rc1',
      'maven-versions-generated.txt:11435 MAVEN 1.1.31.sec10 < 1.1.31_noneautotype',
      'maven-versions-generated.txt:11450 MAVEN 1.1.34.sec10 < 1.1.34_noneautotype',
      'maven-versions-generated.txt:11476 MAVEN 1.1.46.sec10 < 1.1.46_noneautotype',
      'maven-versions-generated.txt:11526 MAVEN 1.2.8.sec10_noneautotype < 1.2.8_noneautotype',
      'maven-versions-generated.txt:11557 MAVEN 1.2.31.sec10 < 1.2.31_noneautotype',
      'maven-versions-generated.txt:11578 MAVEN 1.2.48.sec10 < 1.2.48_noneautotype',
      'maven-versions-generated.txt:11582 MAVEN 1.2.50.sec10 < 1.2.50_noneautotype',
      'maven-versions-generated.txt:11594 MAVEN 1.2.54.sec10 < 1.2.54_noneautotype',
      'maven-versions-generated.txt:11602 MAVEN 1.2.57.sec10 < 1.2.57_noneautotype',
      'maven-versions-generated.txt:11612 MAVEN 1.2.60.sec10 < 1.2.60_noneautotype',
      'maven-versions-generated.txt:11621 MAVEN 1.2.67.sec10 < 1.2.67_noneautotype',
      'maven-versions-generated.txt:11687 MAVEN 1.0.0rc0 < 1.0.beta8',
      'maven-versions-generated.txt:11748 MAVEN 1.5.9.RC1 < 1.5.9-RC0',
      'maven-versions-generated.txt:12642 MAVEN 1.1.0-01-glassfish < 1.1.0.Beta1',
    ],
  },
  {
    reason:
      "The semver crate Cargo uses, which `npm run conformance:native` asks (issue 14), refuses short versions (`1`, `1.2`, `1.2-alpha`), numeric prerelease identifiers with leading zeros (`rc.011`) and an empty or space-only requirement; deps.dev's library reads them as `1.0.0`, `1.2.0`, compares `011` as 11 and reads an empty requirement as `*`",
    ids: [
      'compare CARGO "1" "1.0"',
      'compare CARGO "1" "1.0.0"',
      'compare CARGO "1.0.1" "1.1"',
      'compare CARGO "1.5" "1.11"',
      'compare CARGO "1.0" "1.0.0"',
      'compare CARGO "1.0.0-rc.12" "1.0.0-rc.011"',
      'compare CARGO "0.0.1-alpha.006" "0.0.1-alpha.6"',
      'match CARGO match "" u49',
      'match CARGO match " " u49',
      'canon CARGO "1"',
      'canon CARGO "1.0"',
      'parse CARGO "1.2.3-beta.01"',
      'parse CARGO "1"',
      'parse CARGO "1.2"',
      'parse CARGO "1.2-alpha"',
    ],
  },
  {
    reason:
      "node-semver 7's strict `semver.valid`, which `npm run conformance:native` asks (issue 14), refuses short versions (`1`, `1.2`, `1.2-alpha`), more than one leading `v`, and leading zeros in numbers and numeric prerelease identifiers; deps.dev's library reads them as `1.0.0`, `1.2.0`, ... and compares `006` as 6",
    ids: [
      'compare NPM "1" "1.0"',
      'compare NPM "1" "1.0.0"',
      'compare NPM "1.0.1" "1.1"',
      'compare NPM "1.5" "1.11"',
      'compare NPM "1.0" "1.0.0"',
      'compare NPM "0.0.1-alpha.006" "0.0.1-alpha.6"',
      'compare NPM "2001.1001.0000-dev-harmony-fb" "2001.1001.0-dev-harmony-fb"',
      'canon NPM "1"',
      'canon NPM "1.0"',
      'canon NPM "vv6.0.0-beta1+build2"',
      'parse NPM "1.2.3-beta.01"',
      'parse NPM "1"',
      'parse NPM "1.2"',
      'parse NPM "1.2-alpha"',
      'parse NPM "vvvvvvvvvvvv1.2.3"',
    ],
  },
  {
    reason:
      'x/mod/semver rejects numeric prerelease identifiers with leading zeros (`006`, `011`, `01`), so the go command treats these as invalid (sorted first); deps.dev accepts them',
    ids: ['compare GO "v1.0.0-rc.12" "v1.0.0-rc.011"', 'compare GO "v0.0.1-alpha.006" "v0.0.1-alpha.6"'],
  },
  {
    reason:
      "Maven 3.x ComparableVersion reads `1-ga-1` as [1,[[1]]] (the null `ga` is dropped) which sorts below `1-1` = [1,[1]]; equality only holds under Maven 4's CombinationItem rules",
    ids: ['compare MAVEN "1-ga-1" "1-1"', 'maven-versions.txt:100 MAVEN 1-1 = 1-ga-1'],
  },
  {
    reason:
      "NuGet's VersionComparer compares numeric labels with Int32.TryParse (`006` == 6, `011` == 11); deps.dev compares them as strings",
    ids: ['compare NUGET "1.0.0-rc.12" "1.0.0-rc.011"', 'compare NUGET "0.0.1-alpha.006" "0.0.1-alpha.6"'],
  },
  {
    reason:
      'pypa/packaging: a clause naming a prerelease (`>2.3.3.dev1`, `>2.0.0-rc.1`, `>2.3.4.dev1`) admits prereleases, and `>` only excludes post/local releases of the same base; deps.dev disables prereleases for `>X` with a prerelease X (README: known divergence)',
    ids: [
      'match PYPI match ">2.0.0-rc.1" u49',
      'match PYPI match ">2.3.4.dev1" u11',
      'match PYPI match ">2.3.3.dev1" u11',
    ],
  },
  {
    reason: 'The semver crate rejects a number after a wildcard (`1.*.3`); deps.dev reads it as `1.*`',
    ids: ['match CARGO match "1.*.3" u49', 'match CARGO match "1.x.3" u49'],
  },
  {
    reason:
      'node-semver 7 rejects `1.*.3` / `1.x.3` (validRange -> null); deps.dev reads it as `1.*` (README: known divergence)',
    ids: ['match NPM match "1.*.3" u49', 'match NPM match "1.x.3" u49'],
  },
  {
    reason:
      "pypa/packaging: `<V` (V final) never matches prereleases of V itself (`<0.5.0` excludes 0.5.0rc1, `<2.0.0` excludes 2.0.0rc*), even when prereleases are allowed; deps.dev's interval logic includes them",
    ids: ['match PYPI match ">=2.0.0-rc <2.0.0" u49', 'match PYPI match_prerelease "<0.5.0" u49'],
  },
  {
    reason:
      'pypa/packaging matches `+local` candidates against public-version specifiers (`==2.3.4`, `>=`, `!=`, `.*`, empty); deps.dev never does (README: known divergence)',
    ids: [
      'match PYPI match ">=2.3.3" u11',
      'match PYPI match "==2.3.4" u11',
      'match PYPI match ">=2.3.4-rc.1" u11',
      'match PYPI match ">=2.3.4.dev1" u11',
      'match PYPI match ">=2.3.4" u11',
      'match PYPI match "==2.3.*" u11',
      'match PYPI match "" u11',
      'match PYPI match "!=1.2.3" u11',
      'match PYPI match "!=1.2.*" u11',
      'match PYPI match "!=1.*" u11',
    ],
  },
  {
    reason:
      "Wildcard patterns are not versions: canon() returns null for them (deps.dev's Canon also prints version patterns)",
    ids: [
      'canon NPM "*"',
      'canon NPM "1.*"',
      'canon NPM "1.0.*"',
      'canon NPM "1.*-alpha"',
      'canon NPM "1.*.0-alpha"',
      'canon NPM "1.*.0-alpha.1"',
      'canon NPM "1.0.x+build.01"',
      'canon NPM "1.0.X+build.01"',
      'canon NPM "vvv6.x.0-beta1"',
      'canon CARGO "*"',
      'canon CARGO "1.*"',
      'canon CARGO "1.0.*"',
      'canon CARGO "1.*-alpha"',
      'canon CARGO "1.*.0-alpha"',
      'canon CARGO "1.*.0-alpha.1"',
      'canon CARGO "1.0.x+build.01"',
      'canon CARGO "1.0.X+build.01"',
      'canon NUGET "*"',
      'canon NUGET "1.*"',
      'canon NUGET "1.0.*"',
      'canon NUGET "1.*-alpha"',
    ],
  },
  {
    reason:
      'node-semver accepts this range (`||` and empty alternatives mean `*`; `0.3.0 - 0` is `>=0.3.0 <1.0.0-0`, which matches nothing); deps.dev rejects it',
    ids: [
      'constraint_error NPM "0.3.0 - 0"',
      'constraint_error NPM "||"',
      'constraint_error NPM "|| ||"',
      'constraint_error NPM "1.0||"',
    ],
  },
  {
    reason:
      "Maven's VersionRange.createFromVersionSpec accepts adjacent restrictions without a comma (`[1.0][2.0]` = {1.0, 2.0}); deps.dev rejects it",
    ids: ['constraint_error MAVEN "[1.0][2.0]"'],
  },
  {
    reason:
      'NuGet version parts are Int32 (System.Version); 20181231235959 overflows, so NuGet rejects the version; deps.dev accepts int64',
    ids: ['parse NUGET "1.2.20181231235959"'],
  },
  {
    reason:
      "packaging's version numbers are arbitrary-precision (Python int), so pip accepts these; deps.dev limits numbers to int64",
    ids: [
      'parse PYPI "1.2.9223372036854775807"',
      'parse PYPI "1.2.9223372036854775808"',
      'parse PYPI "1.2.18446744073709551615"',
      'parse PYPI "1.2.18446744073709551616"',
    ],
  },
  {
    reason:
      'the semver crate Cargo uses reads numbers as u64, so cargo accepts these (and rejects 18446744073709551616, as here); deps.dev limits numbers to int64',
    ids: [
      'parse CARGO "1.2.9223372036854775807"',
      'parse CARGO "1.2.9223372036854775808"',
      'parse CARGO "1.2.18446744073709551615"',
    ],
  },
  {
    reason:
      'Gem::Version segments are arbitrary-precision Integers, so RubyGems accepts these; deps.dev limits numbers to int64',
    ids: [
      'parse RUBYGEMS "1.2.9223372036854775807"',
      'parse RUBYGEMS "1.2.9223372036854775808"',
      'parse RUBYGEMS "1.2.18446744073709551615"',
      'parse RUBYGEMS "1.2.18446744073709551616"',
    ],
  },
  {
    reason:
      'A prerelease after a wildcard (`1.*-alpha`, `1.x.3-alpha`) is rejected by the native parser (node-semver validRange -> null, semver crate error, PEP 440 has no such form); deps.dev ignores the tail',
    ids: [
      'parse CARGO "1.*-alpha"',
      'parse NPM "1.*-alpha"',
      'parse CARGO "1.*.3-alpha"',
      'parse NPM "1.*.3-alpha"',
      'parse CARGO "1.x.3-alpha"',
      'parse NPM "1.x.3-alpha"',
      'parse CARGO "1.*.3-alpha.1"',
      'parse NPM "1.*.3-alpha.1"',
      'parse PYPI "1.*-alpha"',
      'parse PYPI "1.*.3-alpha"',
      'parse PYPI "1.*.3-alpha.1"',
    ],
  },
  {
    reason:
      "These node-semver fixtures pass `loose: true`; this library follows node-semver's default strict mode (what `semver.valid`/`satisfies` answer without options), which rejects `=1.2.3`, `v 1.2.3` and `1.2.3pre` (tools/conformance-native.ts)",
    ids: [
      'equality.js#1 1.2.3 == =1.2.3',
      'equality.js#2 1.2.3 == v 1.2.3',
      'equality.js#3 1.2.3 == = 1.2.3',
      'equality.js#5 1.2.3 ==  =1.2.3',
      'equality.js#6 1.2.3 ==  v 1.2.3',
      'equality.js#7 1.2.3 ==  = 1.2.3',
      'equality.js#9 1.2.3-0 == =1.2.3-0',
      'equality.js#10 1.2.3-0 == v 1.2.3-0',
      'equality.js#11 1.2.3-0 == = 1.2.3-0',
      'equality.js#13 1.2.3-0 ==  =1.2.3-0',
      'equality.js#14 1.2.3-0 ==  v 1.2.3-0',
      'equality.js#15 1.2.3-0 ==  = 1.2.3-0',
      'equality.js#17 1.2.3-1 == =1.2.3-1',
      'equality.js#18 1.2.3-1 == v 1.2.3-1',
      'equality.js#19 1.2.3-1 == = 1.2.3-1',
      'equality.js#21 1.2.3-1 ==  =1.2.3-1',
      'equality.js#22 1.2.3-1 ==  v 1.2.3-1',
      'equality.js#23 1.2.3-1 ==  = 1.2.3-1',
      'equality.js#25 1.2.3-beta == =1.2.3-beta',
      'equality.js#26 1.2.3-beta == v 1.2.3-beta',
      'equality.js#27 1.2.3-beta == = 1.2.3-beta',
      'equality.js#29 1.2.3-beta ==  =1.2.3-beta',
      'equality.js#30 1.2.3-beta ==  v 1.2.3-beta',
      'equality.js#31 1.2.3-beta ==  = 1.2.3-beta',
      'equality.js#32 1.2.3-beta+build ==  = 1.2.3-beta+otherbuild',
      'equality.js#33 1.2.3+build ==  = 1.2.3+otherbuild',
      'range-include.js#4 "1.2.3pre+asdf - 2.4.3-pre+asdf" "1.2.3"',
      'range-include.js#5 "1.2.3-pre+asdf - 2.4.3pre+asdf" "1.2.3"',
      'range-include.js#6 "1.2.3pre+asdf - 2.4.3pre+asdf" "1.2.3"',
      'range-include.js#67 "~ 1.0.3alpha" "1.0.12"',
    ],
  },
  {
    reason:
      'The native parser strips surrounding whitespace (node-semver trims; Gem::Version strips); deps.dev rejects it',
    ids: ['parse NPM "1.0.0 "', 'parse RUBYGEMS "1.0.0 "'],
  },
  {
    reason: 'x/mod/semver rejects numeric prerelease identifiers with leading zeros (`beta.01`)',
    ids: ['parse GO "v1.2.3-beta.01"'],
  },
  {
    reason:
      'The semver crate (Cargo) has no `v` prefix: `v1.2.3` is invalid and sorts before every valid version; these OSV lines are for npm-style parsers',
    ids: [
      'semver-versions.txt:18 CARGO v0.0.0 > 0.0.0-foo',
      'semver-versions.txt:19 CARGO v0.0.1 > 0.0.0',
      'semver-versions.txt:20 CARGO v1.0.0 > 0.9.9',
      'semver-versions.txt:21 CARGO v0.10.0 > 0.9.0',
      'semver-versions.txt:22 CARGO v0.99.0 > 0.10.0',
      'semver-versions.txt:23 CARGO v2.0.0 > 1.2.3',
      'semver-versions.txt:50 CARGO 0.0.0-foo < v0.0.0',
      'semver-versions.txt:51 CARGO 0.0.0 < v0.0.1',
      'semver-versions.txt:52 CARGO 0.9.9 < v1.0.0',
      'semver-versions.txt:53 CARGO 0.9.0 < v0.10.0',
      'semver-versions.txt:54 CARGO 0.10.0 < v0.99.0',
      'semver-versions.txt:55 CARGO 1.2.3 < v2.0.0',
      'semver-versions.txt:76 CARGO 1.2.3 = v1.2.3',
      'semver-versions.txt:78 CARGO 1.2.3-0 = v1.2.3-0',
      'semver-versions.txt:80 CARGO 1.2.3-1 = v1.2.3-1',
      'semver-versions.txt:82 CARGO 1.2.3-beta = v1.2.3-beta',
      'semver-versions.txt:86 CARGO v1.2.3+build = 1.2.3+otherbuild',
    ],
  },
];
