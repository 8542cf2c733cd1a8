import React from 'react';
import { wordsUntilNow } from 'tidetime';

export const Ago = ({ when }) => <span>{wordsUntilNow(when)} ago</span>;
