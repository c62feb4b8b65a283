import { mount } from '@vue/test-utils';
import Banner from '@components/Banner/Banner.vue';

// Proves the component pipeline that the extension's own components rely on: a shell SFC written in
// TypeScript, compiled through vue3-jest, with the global directives from tests/setup/jest.setup.ts.
describe('shell component pipeline', () => {
  it('renders a shell Banner label through the clean-html directive', () => {
    const wrapper = mount(Banner, { props: { color: 'warning', label: 'Machine is stuck\nin Provisioning' } });

    expect(wrapper.classes()).toContain('warning');
    const content = wrapper.find('[data-testid="banner-content"]');

    expect(content.text()).toBe('Machine is stuck\nin Provisioning');
    // nlToBr turned the newline into a <br> and clean-html kept that tag.
    expect(content.find('br').exists()).toBe(true);
  });

  it('escapes markup in a label instead of rendering it', () => {
    const wrapper = mount(Banner, { props: { label: '<img src=x onerror="alert(1)">node-1' } });
    const content = wrapper.find('[data-testid="banner-content"]');

    expect(content.find('img').exists()).toBe(false);
    expect(content.text()).toBe('<img src=x onerror="alert(1)">node-1');
  });

  it('renders the close button with its translated label and emits close', async() => {
    const wrapper = mount(Banner, { props: { label: 'x', closable: true } });
    const closer = wrapper.find('[role="button"]');

    expect(closer.attributes('aria-label')).toBe('%generic.close%');
    await closer.trigger('click');
    expect(wrapper.emitted('close')).toHaveLength(1);
  });
});
