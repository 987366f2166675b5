// web/sample.js is responsible for the one-click sample: two tables with a
// user and a product, written through the same requests a person would send.
import { send } from "./exchange.js";

export const sampleUser = {
  PartitionKey: "users",
  RowKey: "ada",
  properties: [
    { name: "Name", type: "Edm.String", text: "Ada Lovelace" },
    { name: "Email", type: "Edm.String", text: "ada@example.com" },
    { name: "Age", type: "Edm.Int32", text: "36" },
    { name: "Visits", type: "Edm.Int64", text: "9876543210" },
    { name: "Rating", type: "Edm.Double", text: "4.5" },
    { name: "Active", type: "Edm.Boolean", text: "true" },
    { name: "Joined", type: "Edm.DateTime", text: "2021-06-09T01:17:13.2924321Z" },
    { name: "Id", type: "Edm.Guid", text: "c9da6455-213d-42c9-9a79-3e9149a57833" },
    { name: "Avatar", type: "Edm.Binary", text: "QmFiYmFnZQ==" },
  ],
};

export const sampleProduct = {
  PartitionKey: "engines",
  RowKey: "analytical-1",
  properties: [
    { name: "Title", type: "Edm.String", text: "Analytical Engine" },
    { name: "Price", type: "Edm.Double", text: "19.99" },
    { name: "Weight", type: "Edm.Double", text: "2.0" },
    { name: "Stock", type: "Edm.Int32", text: "3" },
    { name: "Sku", type: "Edm.Guid", text: "4185404a-5818-48c3-b9be-f217df0dba6f" },
    { name: "Released", type: "Edm.DateTime", text: "1837-01-01T00:00:00Z" },
    { name: "Discontinued", type: "Edm.Boolean", text: "false" },
  ],
};

// loadSample writes the sample into a playground's account, each request on
// its wire view, and resolves with the table to select.
export async function loadSample(session) {
  for (const op of [
    { kind: "createTable", table: "Users" },
    { kind: "createTable", table: "Products" },
    { kind: "insertOrReplace", table: "Users", entity: sampleUser },
    { kind: "insertOrReplace", table: "Products", entity: sampleProduct },
  ]) {
    session.emit("exchange", await send(session, op));
  }
  session.emit("tables-changed");
  return "Users";
}
