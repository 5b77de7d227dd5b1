package config

import (
	"gopkg.in/yaml.v3"
)

// maxNodes bounds how many nodes a document may expand to once its aliases are followed
// (the schema package has the same bound), so that nested aliases cannot exhaust memory.
const maxNodes = 200_000

// checkStructure finds what makes a readable YAML document unusable before any key is
// looked at: a key written twice, a key that is a list or a mapping, a merge key (<<), an
// alias that contains itself, or a document that expands to too many values.
func (l *loader) checkStructure(root *yaml.Node) {
	w := structureWalker{
		l:         l,
		budget:    maxNodes,
		active:    map[*yaml.Node]bool{},
		aliasPath: map[*yaml.Node]string{},
		reported:  map[*yaml.Node]bool{},
	}
	w.walk(root, "")
}

type structureWalker struct {
	l      *loader
	budget int
	active map[*yaml.Node]bool
	// aliasPath keeps where each alias was first met: an alias that contains itself is
	// met again deeper, but is reported where it is written.
	aliasPath map[*yaml.Node]string
	// reported keeps the keys already reported: a mapping repeated by aliases is
	// reported once.
	reported map[*yaml.Node]bool
	failed   bool // stop after the first alias problem: the rest would repeat it
}

func (w *structureWalker) walk(n *yaml.Node, path string) {
	if n == nil || w.failed {
		return
	}
	w.budget--
	if w.budget < 0 {
		w.failed = true
		w.l.errorAt(n.Line, n.Column, path, catalogue.Text(w.l.lang, mTooManyAliases))
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		if first, ok := w.aliasPath[n]; ok {
			path = first
		} else {
			w.aliasPath[n] = path
		}
		if n.Alias == nil || w.active[n.Alias] {
			w.failed = true
			w.l.errorAt(n.Line, n.Column, path, catalogue.Text(w.l.lang, mAliasLoop, printable(n.Value)))
			return
		}
		w.active[n.Alias] = true
		w.walk(n.Alias, path)
		delete(w.active, n.Alias)
	case yaml.SequenceNode:
		for i, item := range n.Content {
			w.walk(item, joinIndex(path, i))
		}
	case yaml.MappingNode:
		w.mapping(n, path)
	}
}

func (w *structureWalker) mapping(n *yaml.Node, path string) {
	lang := w.l.lang
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if w.reported[k] {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			w.reported[k] = true
			w.l.errorAt(k.Line, k.Column, path, catalogue.Text(lang, mKeyNotWord))
			continue
		}
		keyPath := joinKey(path, k.Value)
		if k.ShortTag() == "!!merge" {
			w.reported[k] = true
			w.l.errorAt(k.Line, k.Column, keyPath, catalogue.Text(lang, mMergeKey))
			continue
		}
		if first, ok := seen[k.Value]; ok {
			w.reported[k] = true
			w.l.errorAt(k.Line, k.Column, keyPath, catalogue.Text(lang, mDuplicateKey, q(lang, k.Value), first.Line))
			continue
		}
		seen[k.Value] = k
		w.walk(v, keyPath)
	}
}
