import React from 'react';
import { Tooltip } from 'widgetkit';

export function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <span className="help-icon">?</span>
    </Tooltip>
  );
}
