package paging

import "context"

// Peer is a node a two-hop walk reached and the intermediate nodes it was
// reached through: package adjlist's Peer.
type Peer struct {
	ID  string
	Via []string
}

// TwoHop walks first's pages and, for each target of a page (its To), the
// pagers second gives for it, all within budget requests counted in
// *requests; it returns the sources (From) met on the second hop, each
// once, in the order first met, with the targets they were met through.
// A source equal to skip is left out when skipStart. truncated reports
// that the budget ran out while pages remained. second's errors are
// returned as they are.
func TwoHop(ctx context.Context, first Pager, second func(target Ref) ([]Pager, error), skipStart bool, skip string, budget int, requests *int) (peers []Peer, truncated bool, err error) {
	index := make(map[string]int) // id → index in peers
	// pages runs p within the budget, handing each page's refs to each;
	// it reports false when the budget cut it short.
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
