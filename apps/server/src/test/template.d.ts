/** The password of every demo account in a test database. */
export declare const DEMO_PASSWORD = "Demo@2026!";
/** The environment variable that carries the template's name from the global setup to the tests. */
export declare const TEMPLATE_VARIABLE = "TEST_PG_TEMPLATE";
/** Creates the run's template database (migrations, industries, the demo) and returns its name. */
export declare function buildTemplate(adminUrl: string): Promise<string>;
/** A new database `name` copied from the run's template; returns its URL. */
export declare function copyTemplate(name: string): Promise<string>;
