package mjlog

import (
	"encoding/xml"
	"strings"
)

// parseFast parses a plain (not gzip) mjlog held in s with a scanner for
// the subset of XML that mjlog files use: an optional <?xml …?>
// declaration, the <mjloggm> root, and empty child elements with ASCII
// names and quoted attribute values free of '&', '<' and line breaks,
// separated by whitespace. It feeds each element to the same
// interpretation as Parse. It returns ok = false, and nothing else, for
// anything outside that subset and for any error, so that the caller
// parses the input again with encoding/xml and reports exactly what that
// path reports. The scanner avoids encoding/xml's tokenizer, which is
// most of the cost of reading a log.
func parseFast(s, name string) (g *Game, ok bool) {
	p := &parser{g: &Game{File: name}}
	i := skipSpace(s, 0)
	if strings.HasPrefix(s[i:], "<?xml") {
		end := strings.Index(s[i:], "?>")
		if end < 0 {
			return nil, false
		}
		i = skipSpace(s, i+end+2)
	}
	var attrs []xml.Attr
	root, attrs, i, empty, ok := scanElement(s, i, attrs[:0])
	if !ok || empty || root != "mjloggm" {
		return nil, false
	}
	if v, found := (&tag{attrs: attrs}).get("ver"); found {
		p.g.Version = v
	}
	for {
		i = skipSpace(s, i)
		if strings.HasPrefix(s[i:], "</") {
			j := i + 2
			k := j
			for k < len(s) && isNameByte(s[k]) {
				k++
			}
			if s[j:k] != "mjloggm" {
				return nil, false
			}
			k = skipSpace(s, k)
			if k >= len(s) || s[k] != '>' {
				return nil, false
			}
			return p.g, true
		}
		var elem string
		var empty bool
		elem, attrs, i, empty, ok = scanElement(s, i, attrs[:0])
		if !ok || !empty {
			return nil, false
		}
		if p.element(xml.StartElement{Name: xml.Name{Local: elem}, Attr: attrs}) != nil {
			return nil, false
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// scanElement reads a start tag at s[i]: its name, its attributes
// (appended to attrs), the index after it, and whether it is empty
// ("/>"). ok is false for anything the fast path does not handle.
func scanElement(s string, i int, attrs []xml.Attr) (name string, _ []xml.Attr, next int, empty, ok bool) {
	if i >= len(s) || s[i] != '<' {
		return "", attrs, i, false, false
	}
	i++
	j := i
	for j < len(s) && isNameByte(s[j]) {
		j++
	}
	if j == i || s[i] >= '0' && s[i] <= '9' || s[i] == '-' || s[i] == '.' {
		return "", attrs, i, false, false
	}
	name = s[i:j]
	i = j
	for {
		k := skipSpace(s, i)
		if k >= len(s) {
			return "", attrs, i, false, false
		}
		switch {
		case s[k] == '>':
			return name, attrs, k + 1, false, true
		case strings.HasPrefix(s[k:], "/>"):
			return name, attrs, k + 2, true, true
		case k == i:
			return "", attrs, i, false, false // no space before an attribute
		}
		a := k
		for k < len(s) && isNameByte(s[k]) {
			k++
		}
		if k == a {
			return "", attrs, i, false, false
		}
		an := s[a:k]
		k = skipSpace(s, k)
		if k >= len(s) || s[k] != '=' {
			return "", attrs, i, false, false
		}
		k = skipSpace(s, k+1)
		if k >= len(s) || s[k] != '"' && s[k] != '\'' {
			return "", attrs, i, false, false
		}
		q := s[k]
		end := strings.IndexByte(s[k+1:], q)
		if end < 0 {
			return "", attrs, i, false, false
		}
		v := s[k+1 : k+1+end]
		if strings.ContainsAny(v, "&<\n\r\t") {
			return "", attrs, i, false, false
		}
		attrs = append(attrs, xml.Attr{Name: xml.Name{Local: an}, Value: v})
		i = k + 1 + end + 1
	}
}
