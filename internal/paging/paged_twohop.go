package paging

import "context"

// Peer is adjlist's Peer: a node two hops away and the nodes between.
type Peer struct {
	ID  string
	Via []string
}

// TwoHop walks first's pages and, for each target (To), the pagers second
// gives, within budget requests counted in *requests; it returns the
// sources (From) of the second hop in the order first met, with the
// targets they were met through, skip left out when skipStart. truncated:
// the budget ran out while pages remained.
func TwoHop(ctx context.Context, first Pager, second func(target Ref) ([]Pager, error), skipStart bool, skip string, budget int, requests *int) (peers []Peer, truncated bool, err error) {
	index := make(map[string]int) // id → index in peers
	pages := func(p Pager, each func([]Ref) error) (bool, error) {
		done, err := p(ctx, requests, budget, each)
		truncated = truncated || !done && err == nil
		return done, err
	}
	_, err = pages(first, func(targets []Ref) error {
		for _, target := range targets {
			rev, err := second(target)
			if err != nil {
				return err
			}
			for _, p := range rev {
				done, err := pages(p, func(sources []Ref) error {
					for _, src := range sources {
						if skipStart && src.From == skip {
							continue
						}
						i, ok := index[src.From]
						if !ok {
							i = len(peers)
							index[src.From] = i
							peers = append(peers, Peer{ID: src.From})
						}
						peers[i].Via = append(peers[i].Via, target.To)
					}
					return nil
				})
				if err != nil || !done { // !done: the budget is spent
					return err
				}
			}
		}
		return nil
	})
	return peers, truncated, err
}
