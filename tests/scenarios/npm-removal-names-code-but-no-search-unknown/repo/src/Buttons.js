import styled from 'stylekit';

export const Button = styled.button`
  padding: 0.5em 1em;
  border-radius: 3px;
`;

export const BigButton = Button.extend`
  font-size: 1.5em;
`;
