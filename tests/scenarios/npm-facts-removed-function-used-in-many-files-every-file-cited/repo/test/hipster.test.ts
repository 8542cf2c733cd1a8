import * as sinon from 'sinon';
import * as SpyKit from 'spykit';
import { expect } from 'chai';

const spyTest = SpyKit.configureTest(sinon, { useFakeTimers: false });

describe('hipster', () => {
  it('returns a value', spyTest(function () {
    expect(this.spy).to.exist;
  }));
});
