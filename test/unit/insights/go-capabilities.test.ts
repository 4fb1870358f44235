/**
 * The import-and-reference analysis behind GetCapabilities (src/insights/go-capabilities.ts): imports in
 * every form, references per imported name (aliases, comments and strings ignored), per-function rules
 * of os and net/http, side-effect and cgo imports, and a zip's own files only (no tests, testdata,
 * nested modules).
 */
import { describe, expect, it } from 'vitest';
import { fileCapabilities, goImports, zipCapabilities } from '../../../src/insights/go-capabilities.ts';
import { buildZip } from '../../../tools/insights-upstream/zip.ts';

const caps = (src: string) => Object.fromEntries(fileCapabilities(src));

describe('goImports', () => {
  it('reads single, grouped, aliased, blank, dot and semicolon-separated imports', () => {
    const src = `package x
import "os"
import h "net/http"
import (
  "fmt" // a comment
  _ "net/http/pprof"
  . "reflect"
  yaml "gopkg.in/yaml.v3"
)
import ("os/exec"; "syscall")
var s = "import \\"plugin\\""`;
    expect(goImports(src)).toEqual([
      ['os', 'os'],
      ['h', 'net/http'],
      ['fmt', 'fmt'],
      ['_', 'net/http/pprof'],
      ['.', 'reflect'],
      ['yaml', 'gopkg.in/yaml.v3'],
      ['exec', 'os/exec'],
      ['syscall', 'syscall'],
    ]);
  });
});

describe('fileCapabilities', () => {
  it('maps os per function, ignores comments and strings, counts distinct references', () => {
    expect(
      caps(`package x
import "os"
// os.Setenv("A") in a comment
func f() { os.Open("a"); os.Open("b"); os.Getenv("HOME"); os.Setenv("X", "os.StartProcess"); _ = os.ErrNotExist }`),
    ).toEqual({ CAPABILITY_FILES: 1, CAPABILITY_READ_SYSTEM_STATE: 1, CAPABILITY_MODIFY_SYSTEM_STATE: 1 });
  });
  it('follows an alias, not a same-named field; net/http helpers are safe', () => {
    expect(
      caps(`package x
import web "net/http"
func f() { web.StatusText(200); cfg.http.Get(); web.ListenAndServe(":80", nil) }`),
    ).toEqual({ CAPABILITY_NETWORK: 1 });
    expect(
      caps(`package x
import "net/http"
func f() { http.StatusText(200) }`),
    ).toEqual({});
  });
  it('side-effect, cgo, unsafe, reflect, exec and syscall imports', () => {
    expect(
      caps(`package x
// #include <stdio.h>
import "C"
import _ "net/http/pprof"
import ("unsafe"; "reflect"; "os/exec"; "syscall")
func f() { _ = unsafe.Pointer(nil); reflect.ValueOf(1); exec.Command("x"); syscall.Kill(1, 9) }`),
    ).toEqual({
      CAPABILITY_CGO: 1,
      CAPABILITY_NETWORK: 1,
      CAPABILITY_UNSAFE_POINTER: 1,
      CAPABILITY_REFLECT: 1,
      CAPABILITY_EXEC: 1,
      CAPABILITY_SYSTEM_CALLS: 1,
    });
  });
  it('a package outside the table has none', () => {
    expect(caps('package x\nimport "strings"\nfunc f() { strings.ToUpper("os.Open") }')).toEqual({});
  });
});

describe('zipCapabilities', () => {
  it("reads the module's own files only, in Capslock enum order", async () => {
    const p = 'example.com/m@v1.0.0/';
    const zip = buildZip([
      { name: `${p}go.mod`, content: 'module example.com/m\n' },
      { name: `${p}a.go`, content: 'package m\nimport "os/exec"\nfunc f() { exec.Command("x") }\n' },
      { name: `${p}b.go`, content: 'package m\nimport "os"\nfunc g() { os.ReadFile("x") }\n' },
      { name: `${p}a_test.go`, content: 'package m\nimport "net"\nfunc h() { net.Dial("tcp", "") }\n' },
      { name: `${p}testdata/t.go`, content: 'package m\nimport "syscall"\nfunc h() { syscall.Getpid() }\n' },
      { name: `${p}sub/go.mod`, content: 'module example.com/m/sub\n' },
      { name: `${p}sub/s.go`, content: 'package sub\nimport "plugin"\nfunc h() { plugin.Open("") }\n' },
    ]);
    expect(await zipCapabilities(zip)).toEqual([
      { capability: 'CAPABILITY_FILES', directCount: 1, indirectCount: 0 },
      { capability: 'CAPABILITY_EXEC', directCount: 1, indirectCount: 0 },
    ]);
  });
});
