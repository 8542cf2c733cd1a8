import { run, buildSchema } from "querykit";

const schema = buildSchema(`
  type Query { hello: String }
`, { noLocation: true });

const root = { hello: () => "Hello world!" };

export default async (req, res) => {
  const { query } = req.body;
  const response = await run({ schema, source: query, rootValue: root });
  res.status(200).json(response);
};
