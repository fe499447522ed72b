"""Pure helpers of the Discord layer (ids, paging, layout, message builders, logging)."""
