/** One page of a list as the contract answers it. */
export interface Page<Item> {
  readonly items: ReadonlyArray<Item>
  readonly total: number
  readonly page: number
  readonly page_size: number
}

/**
 * Every item of a list, page after page: `for await (const item of client.wallets.list(query))`.
 * The first page is the query's `page` (default 1); the walk stops at the first empty page or
 * once the pages seen reach `total`. Pages are offsets over a changing list: an item inserted
 * ahead of the walk shifts later pages, so a walk can see an item twice or miss a new one; for
 * an exact scan use a filter that new items cannot enter (for example a time bound).
 */
export interface PageIterable<Item, P extends Page<Item> = Page<Item>> extends AsyncIterable<Item> {
  /** The pages themselves, for callers that want `total` or to stop between pages. */
  pages(): AsyncIterable<P>
  /** Every item in one array (reads every page first: mind the list's size). */
  toArray(): Promise<Array<Item>>
}

export const pageIterable = <Item, P extends Page<Item>>(firstPage: number, fetchPage: (page: number) => Promise<P>): PageIterable<Item, P> => {
  const pages = async function*(): AsyncGenerator<P> {
    let page = firstPage
    let seen = 0
    while (true) {
      const answer = await fetchPage(page)
      if (answer.items.length === 0) return
      yield answer
      // Counted from where the walk started, so a walk from page 3 also ends at the last page.
      seen = (answer.page - 1) * answer.page_size + answer.items.length
      if (seen >= answer.total) return
      page = answer.page + 1
    }
  }
  const items = async function*(): AsyncGenerator<Item> {
    for await (const answer of pages()) yield* answer.items
  }
  return {
    [Symbol.asyncIterator]: () => items()[Symbol.asyncIterator](),
    pages,
    toArray: async () => {
      const all: Array<Item> = []
      for await (const item of items()) all.push(item)
      return all
    }
  }
}
