import React from 'react';
import ReactDOM from 'react-dom';
import { Cart } from './cart';

ReactDOM.render(<Cart />, document.getElementById('root'));
