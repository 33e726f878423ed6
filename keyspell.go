package adjlist

import (
	"fmt"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// bindSpelling checks a table key template of an [Entity] and makes
// every {name} a key field: text and key fields only, each field followed
// by '#' or ending the key, so that a key parses back into its ids. attr
// names the key ("partition key") in errors.
func bindSpelling(attr string, k KeyTemplate) ([]keycodec.Part, error) {
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
