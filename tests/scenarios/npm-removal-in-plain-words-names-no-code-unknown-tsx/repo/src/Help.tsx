import React from 'react';
import { Tooltip } from 'widgetkit';

export function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text} placement="topLeft">
      <span className="help-icon">?</span>
    </Tooltip>
  );
}
