// Package schema embeds the JSON Schema of Sidekicks' configuration file and validates YAML
// documents against it.
//
// It knows nothing about files, defaults or messages: the config package turns its
// violations into localized messages with lines and keys.
package schema

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ConfigSchemaURL is the $id of the configuration's JSON Schema.
const ConfigSchemaURL = "https://git.rickub.com/bots-garden/sidekicks/schema/config.schema.json"

//go:embed config.schema.json
var configSchema []byte

// ConfigSchema returns a copy of the configuration's JSON Schema document (JSON Schema
// 2020-12).
func ConfigSchema() []byte {
	return bytes.Clone(configSchema)
}

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(configSchema))
	if err != nil {
		return nil, fmt.Errorf("reading the embedded configuration schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ConfigSchemaURL, doc); err != nil {
		return nil, fmt.Errorf("adding the embedded configuration schema: %w", err)
	}
	s, err := c.Compile(ConfigSchemaURL)
	if err != nil {
		return nil, fmt.Errorf("compiling the embedded configuration schema: %w", err)
	}
	return s, nil
})

// ValidateConfig validates a YAML configuration document against the schema. It returns
// nil when the document conforms, the YAML error when the document cannot be read, and
// otherwise a *jsonschema.ValidationError that lists every violation.
func ValidateConfig(document []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	value, err := decodeYAML(document)
	if err != nil {
		return err
	}
	return s.Validate(value)
}
