package dev.tablewright.fakes.sampledb;

/**
 * Table configs over the sample database ({@link SampleDatabase}) that more than one place runs: the system tests
 * check what they answer, the benchmarks time them, so both time and check the same query.
 */
public final class SampleDatabaseConfigs {

    /**
     * Orders with their customer, creator and approver (users joined twice): three joins, three filters, two sorts,
     * and visual settings with formats. {@code PreviewTableConfigTest} checks its rows against a hand-written query;
     * {@code PreviewQueryBenchmark} times compiling, planning and sampling it.
     */
    public static final String THREE_JOINS = """
            {"name": "Big approved orders in Germany", "data_source": [{
              "schema": "sales", "source": "orders",
              "select": {
                "columns": [
                  {"name": "id"}, {"name": "order_number"}, {"name": "status"}, {"name": "total_amount"},
                  {"name": "created_at"},
                  {"name": "name", "table": "customers", "alias": "customer_name"},
                  {"name": "country", "table": "customers"},
                  {"name": "first_name", "table": "users_created_by", "alias": "creator_first_name"},
                  {"name": "last_name", "table": "users_approved_by", "alias": "approver_last_name"}
                ],
                "foreign_tables": [
                  {"schema": "sales", "table": "customers", "join_type": "INNER",
                   "relationship_from": "orders.customer_id", "relationship_to": "customers.id"},
                  {"schema": "core", "table": "users", "alias": "users_created_by", "join_type": "LEFT",
                   "relationship_from": "orders.created_by", "relationship_to": "users.id"},
                  {"schema": "core", "table": "users", "alias": "users_approved_by", "join_type": "LEFT",
                   "relationship_from": "orders.approved_by", "relationship_to": "users_approved_by.id"}
                ]
              },
              "filters": [
                {"column": "status", "operator": "in", "value": ["approved", "shipped"]},
                {"column": "total_amount", "operator": "gte", "value": 1000},
                {"column": "country", "operator": "eq", "value": "DE", "label": "Germany"}
              ],
              "sort": [{"column": "total_amount", "direction": "desc"}, {"column": "id", "direction": "asc"}]
            }],
            "visual_settings": {"page_size": 25, "columns": {
              "id": {"header": "ID", "type": "number"},
              "order_number": {"header": "Order", "type": "string"},
              "status": {"type": "enum"},
              "total_amount": {"header": "Total", "type": "number", "format": "#,##0.00"},
              "created_at": {"header": "Created", "type": "datetime", "format": "yyyy-MM-dd HH:mm"},
              "customer_name": {"header": "Customer", "type": "string"},
              "country": {"type": "string", "hidden": true},
              "creator_first_name": {"header": "Creator", "type": "string"},
              "approver_last_name": {"header": "Approver", "type": "string"}
            }}}
            """;

    private SampleDatabaseConfigs() {
    }
}
