// Says once, loudly enough, that the PostgreSQL half of the suite did not run.
export default function setup() {
  if (!process.env.TEST_DATABASE_URL) {
    console.log('PostgreSQL tests skipped: TEST_DATABASE_URL is not set (SQLite tests ran).');
  }
}
