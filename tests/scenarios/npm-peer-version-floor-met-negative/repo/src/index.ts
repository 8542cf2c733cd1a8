import { GqlServer, gql } from 'gqlserver';

const typeDefs = gql`
  type Query { hello: String }
`;
const resolvers = { Query: { hello: () => 'world' } };

new GqlServer({ typeDefs, resolvers }).listen().then(({ url }) => console.log(url));
