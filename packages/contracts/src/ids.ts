/**
 * The largest id any stored object can have: ids are PostgreSQL `integer` columns (and SQLite rowids kept to the same
 * range). Every id a client sends is bounded by it, so a larger one is a 1002 naming the field, not a database error
 * (the route fuzzer found `{"id": 4831385702950597}` answering 500 on PostgreSQL).
 */
export const MAX_ID = 2_147_483_647;
