import { flushPromises, mount } from '@vue/test-utils';
import AsyncButton from '@shell/components/AsyncButton';
import CopyToClipboard from '@shell/components/CopyToClipboard';
import CopyCommand from '@pkg/node-health/components/CopyCommand.vue';

jest.mock('@shell/utils/clipboard', () => ({ copyTextToClipboard: jest.fn(() => Promise.resolve()) }));

const { copyTextToClipboard } = require('@shell/utils/clipboard') as { copyTextToClipboard: jest.Mock };

// The one copy button of the extension's commands: the shell's component, with Node Health's texts.
describe('CopyCommand', () => {
  it('is the shell\'s CopyToClipboard with Node Health\'s texts, the label doubling as the accessible name', () => {
    const wrapper = mount(CopyCommand, { props: { text: 'kubectl get nodes', label: 'Copy the host check' } });
    const copy = wrapper.findComponent(CopyToClipboard);

    expect(copy.props()).toEqual({ text: 'kubectl get nodes', showLabel: true });
    expect(copy.findComponent(AsyncButton).props()).toMatchObject({
      actionLabel:  'Copy the host check',
      waitingLabel: '%nodeHealth.tab.detail.copying%',
      successLabel: '%nodeHealth.tab.detail.copied%',
      errorLabel:   '%nodeHealth.tab.detail.copyFailed%',
    });
    expect(copy.attributes('aria-label')).toBe('Copy the host check');
  });

  it('takes its own texts, an icon-only form, and passes class, test id and clicks on', async() => {
    const clicked = jest.fn();
    const wrapper = mount(CopyCommand, {
      props: {
        text: 'x', label: 'Copy', ariaLabel: 'Copy the command', showLabel: false, copiedLabel: 'Done', failedLabel: 'No'
      },
      attrs: {
        class: 'btn-sm', 'data-testid': 'copy', onClick: clicked
      },
    });
    const copy = wrapper.findComponent(CopyToClipboard);

    expect(copy.props('showLabel')).toBe(false);
    expect(copy.findComponent(AsyncButton).props()).toMatchObject({ successLabel: 'Done', errorLabel: 'No' });
    expect(copy.attributes()).toMatchObject({ 'aria-label': 'Copy the command', 'data-testid': 'copy' });
    expect(copy.classes()).toContain('btn-sm');
    await wrapper.find('[data-testid="copy"]').trigger('click');
    await flushPromises();
    expect(copyTextToClipboard).toHaveBeenCalledWith('x');
    expect(clicked).toHaveBeenCalled();
  });
});
