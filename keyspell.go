package adjlist

import (
	"fmt"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// spelling is a table key template of an [Entity]: text and key fields
// only, each field followed by '#' or ending the key, so that a key
// parses back into its ids.
type spelling []keycodec.Part

// bindSpelling checks a table key template and makes every {name} a key
// field; attr names the key ("partition key") in errors.
func bindSpelling(attr string, k KeyTemplate) (spelling, error) {
	if k.err != nil {
		return nil, k.err
	}
	if len(k.parts) == 0 {
		return nil, fmt.Errorf("%w: empty %s template", ErrInvalidOption, attr)
	}
	s, err := keycodec.TableKey(k.parts)
	if err != nil {
		return nil, fmt.Errorf("%w: %s template %s: %w", ErrInvalidOption, attr, keycodec.String(k.parts), err)
	}
	return s, nil
}

// compiled is s as keycodec builds and parses keys, with ids in the
// order of fields: a handle compiles its spellings once.
func (s spelling) compiled(fields []string) keycodec.Spelling { return keycodec.Compile(s, fields) }

// String is the template with its fields as <placeholders>.
func (s spelling) String() string { return keycodec.String(s) }
