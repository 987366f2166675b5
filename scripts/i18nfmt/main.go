// Command i18nfmt keeps the locale catalogues under web/locales in one
// shape, so that two changes to a catalogue merge line by line: every file
// is rewritten with sorted keys, one-space indent and unescaped text; and it
// writes the pseudo-locale en-XA from English (every letter accented, each
// text 40 % longer, placeholders and `code` spans kept), which the layout
// tests use to find text that cannot grow.
//
//	go run ./scripts/i18nfmt [-check] [DIR]
//
// With -check nothing is written: a file out of shape, or an en-XA that is
// not what English makes, is an error.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	check := flag.Bool("check", false, "report files out of shape instead of rewriting them")
	flag.Parse()
	dir := "web/locales"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	if err := run(dir, *check); err != nil {
		fmt.Fprintln(os.Stderr, "i18nfmt:", err)
		os.Exit(1)
	}
}

func run(dir string, check bool) error {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return err
	}
	var bad []string
	for _, f := range files {
		if filepath.Base(filepath.Dir(f)) == "en-XA" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		out, err := encode(v)
		if err != nil {
			return err
		}
		if !bytes.Equal(out, raw) {
			if check {
				bad = append(bad, f)
			} else if err := os.WriteFile(f, out, 0o644); err != nil {
				return err
			}
		}
		if filepath.Base(filepath.Dir(f)) != "en" || filepath.Base(f) == "glossary.json" {
			continue
		}
		pseudo, err := encode(pseudoValue(v, ""))
		if err != nil {
			return err
		}
		target := filepath.Join(dir, "en-XA", filepath.Base(f))
		old, _ := os.ReadFile(target)
		if !bytes.Equal(old, pseudo) {
			if check {
				bad = append(bad, target)
			} else {
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(target, pseudo, 0o644); err != nil {
					return err
				}
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("out of shape (run go run ./scripts/i18nfmt): %s", strings.Join(bad, ", "))
	}
	return nil
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Keys whose values are not reader text: identifiers, URLs and numbers stay.
var kept = map[string]bool{"id": true, "url": true, "docUrl": true, "lang": true, "answer": true}

func pseudoValue(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = pseudoValue(e, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pseudoValue(e, key)
		}
		return out
	case string:
		if kept[key] {
			return x
		}
		return pseudo(x)
	}
	return v
}

var accents = map[rune]rune{
	'a': 'á', 'e': 'é', 'i': 'í', 'o': 'ó', 'u': 'ú', 'y': 'ý', 'c': 'ç', 'n': 'ñ', 's': 'š', 'z': 'ž',
	'A': 'Á', 'E': 'É', 'I': 'Í', 'O': 'Ó', 'U': 'Ú', 'Y': 'Ý', 'C': 'Ç', 'N': 'Ñ', 'S': 'Š', 'Z': 'Ž',
}

// pseudo accents the letters outside placeholders and code spans and pads
// the text to 140 % of its length.
func pseudo(s string) string {
	var b strings.Builder
	depth, code, letters := 0, false, 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '`':
			code = !code
		case r == '{':
			depth++
			// A plural's name and keyword are kept; its branches are text.
			if j := closing(rs, i); j > i && isPlural(string(rs[i+1:j])) {
				head := string(rs[i+1 : j])
				pre := head[:strings.Index(head, "plural,")+len("plural,")]
				b.WriteString("{" + pre)
				rest := []rune(head[len(pre):])
				b.WriteString(pseudoBranches(rest))
				b.WriteRune('}')
				i = j
				depth--
				continue
			}
		case r == '}':
			depth--
		case r == 'F' && i+1 < len(rs) && rs[i+1] == '-' && (i == 0 || !isIDRune(rs[i-1])):
			// A fidelity note's id (F-KEY-SIZE) is an identifier: kept.
			j := i + 2
			for j < len(rs) && (isIDRune(rs[j]) || rs[j] == '-' && j+1 < len(rs) && isIDRune(rs[j+1])) {
				j++
			}
			b.WriteString(string(rs[i:j]))
			i = j - 1
			continue
		}
		if depth == 0 && !code {
			if a, ok := accents[r]; ok {
				b.WriteRune(a)
				letters++
				continue
			}
			if r != ' ' {
				letters++
			}
		}
		b.WriteRune(r)
	}
	if pad := (len(rs)*2 + 4) / 5; pad > 0 && letters > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Repeat("·", pad-1))
	}
	return b.String()
}

func isIDRune(r rune) bool { return r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' }

func closing(rs []rune, open int) int {
	depth := 0
	for j := open; j < len(rs); j++ {
		switch rs[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func isPlural(head string) bool {
	parts := strings.SplitN(head, ",", 3)
	return len(parts) == 3 && strings.TrimSpace(parts[1]) == "plural"
}

// pseudoBranches accents each branch body of a plural (keys kept).
func pseudoBranches(rs []rune) string {
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if rs[i] != '{' {
			b.WriteRune(rs[i])
			continue
		}
		j := closing(rs, i)
		if j < 0 {
			b.WriteString(string(rs[i:]))
			break
		}
		body := pseudo(string(rs[i+1 : j]))
		b.WriteString("{" + body + "}")
		i = j
	}
	return b.String()
}
